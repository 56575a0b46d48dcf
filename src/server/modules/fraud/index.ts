/** The fraud module: the admins' review of botted votes, and voiding or releasing them with a trace. */
export { fraudRepository, type FraudRepository } from './fraud.repository';
export { fraudService, fraudScore, type FraudService } from './fraud.service';
export { fraudRoutes } from './fraud.routes';
