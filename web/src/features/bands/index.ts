export { BandsPage } from './components/bands-page';
export { EditBandPage } from './components/edit-band-page';
export { NewBandPage } from './components/new-band-page';
export { getBands } from './api/get-bands';
