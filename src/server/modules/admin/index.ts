/** The admin dashboard module: what the composition root and the API routes use of it. */
export { adminRepository, type AdminRepository } from './admin.repository';
export { adminService, type AdminService } from './admin.service';
export { adminRoutes } from './admin.routes';
