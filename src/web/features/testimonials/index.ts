// The testimonials feature's public face: the owners' page and the section the plans page shows.
export { TestimonialsPage } from './components/testimonials-page';
export { TestimonialsSection } from './components/testimonials-section';
