// The app's jest config: one line makes its tests run on bridged.
module.exports = {
  preset: 'bridged-client',
};
