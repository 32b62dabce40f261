export { EnrolmentsSection } from './components/enrolments-section';
