// The testimonials feature's public face: the owners' page and the section the plans page shows.
export { TestimonialsSection } from './components/testimonials-section';
