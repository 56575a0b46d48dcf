/** The testimonials module: owners' testimonials on `/testimonials`. */
export { testimonialsRepository, type TestimonialsRepository } from './testimonials.repository';
export { testimonialsService, type TestimonialsService } from './testimonials.service';
export { testimonialsRoutes } from './testimonials.routes';
