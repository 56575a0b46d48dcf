export { Panel } from '../../../components/panel';
