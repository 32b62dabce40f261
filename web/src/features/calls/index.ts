export { ServiceCallsList } from './components/service-calls-list';
export { CallCards } from './components/open-calls-board';
export { CallStateBadge } from './components/call-state-badge';
export { FileList } from './components/file-viewer';
export { useVisibleCall } from './api/get-open-call';
export { useServiceOpenCalls } from './api/get-open-calls';
export { getCalls } from './api/get-calls';
