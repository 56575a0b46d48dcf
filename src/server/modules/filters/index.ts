/** The filters module: the filter catalog, read once at start-up and served from memory. */
export { filtersRepository, type FiltersRepository } from './filters.repository';
export { loadFilterCatalog, type FilterCatalog } from './filters.catalog';
export { filtersRoutes } from './filters.routes';
