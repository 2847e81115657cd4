// An image (or font) required by the app, as Metro's asset plugin gives it: the asset registered with the app's
// AssetRegistry, its size read from the file (app/assets.js, openApp's own), so that an Image loads the file.
import { assetFor } from '../react-native/app/assets.js';

export default {
  process(_source, filename) {
    const asset = JSON.stringify(assetFor(filename));
    return { code: `module.exports = require('react-native/Libraries/Image/AssetRegistry').registerAsset(${asset});` };
  },
};
