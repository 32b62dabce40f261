export { CitizenIseeUploadPage } from './components/citizen-isee-upload-page';
export { IseeBanner } from './components/isee-banner';
export { IseeListPage } from './components/isee-list-page';
export { IseeTable } from './components/isee-table';
export { OperatorIseeUploadPage } from './components/operator-isee-upload-page';
export { VerifyIseePage } from './components/verify-isee-page';
export { ViewIseePage } from './components/view-isee-page';
export { countIseesToVerify } from './api/isee';
