// SourceCode: where the bundle is. `file:///`, so that Image's AssetSourceResolver resolves a required image to its
// own file (`file:///…/logo.png`: assets.js registers each asset at its folder).

export const name = 'SourceCode';

export function create() {
  return { getConstants: () => ({ scriptURL: 'file:///' }) };
}
