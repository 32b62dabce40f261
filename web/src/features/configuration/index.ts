export { ConfigurationPage } from './components/configuration-page';
