// A native module served from its TurboModule spec (a codegen schema's NativeModule): every method the spec
// declares exists with its arity, answers the spec's empty value (`null`, `false`, `0`, `''`, `{}`, `[]`, or a
// promise of one for a Promise method; nothing for a void one), and is recorded; a test gives real behaviour with
// app.implementNativeModule(name, methods), checked against the spec's method names.

/** The empty value of a codegen type annotation. */
export function emptyValue(annotation, aliases = {}) {
  switch (annotation?.type) {
    case 'NullableTypeAnnotation':
      return null;
    case 'BooleanTypeAnnotation':
      return false;
    case 'NumberTypeAnnotation':
    case 'Int32TypeAnnotation':
    case 'DoubleTypeAnnotation':
    case 'FloatTypeAnnotation':
    case 'NumberLiteralTypeAnnotation':
      return 0;
    case 'StringTypeAnnotation':
    case 'StringLiteralTypeAnnotation':
      return '';
    case 'ArrayTypeAnnotation':
      return [];
    case 'ObjectTypeAnnotation': {
      const object = {};
      for (const property of annotation.properties ?? []) {
        if (!property.optional) object[property.name] = emptyValue(property.typeAnnotation, aliases);
      }
      return object;
    }
    case 'TypeAliasTypeAnnotation':
      return emptyValue(aliases[annotation.name], aliases);
    case 'GenericObjectTypeAnnotation':
    case 'MixedTypeAnnotation':
      return {};
    case 'EnumDeclaration':
      return annotation.memberType === 'StringTypeAnnotation' ? '' : 0;
    case 'VoidTypeAnnotation':
    default:
      return undefined;
  }
}

/** The methods a spec declares: `[{ name, arity, returns }]` (getConstants included). */
export function specMethods(spec) {
  return (spec.spec?.properties ?? [])
    .filter((p) => p.typeAnnotation?.type === 'FunctionTypeAnnotation' || p.typeAnnotation?.type === 'NullableTypeAnnotation')
    .map((p) => {
      const fn = p.typeAnnotation.type === 'NullableTypeAnnotation' ? p.typeAnnotation.typeAnnotation : p.typeAnnotation;
      return { name: p.name, arity: (fn?.params ?? []).length, returns: fn?.returnTypeAnnotation, optional: Boolean(p.optional) };
    });
}

/** The module `spec` describes, its methods answering empty values (an app gives its own with implementNativeModule). */
export function createSpecModule(spec) {
  const aliases = spec.aliasMap ?? {};
  const module = {};
  for (const method of specMethods(spec)) {
    const returns = method.returns;
    if (returns?.type === 'PromiseTypeAnnotation') {
      module[method.name] = async () => emptyValue(returns.elementType, aliases) ?? null;
    } else {
      module[method.name] = () => emptyValue(returns, aliases);
    }
    Object.defineProperty(module[method.name], 'length', { value: method.arity });
  }
  // NativeEventEmitter asks a module for these; a spec that declares them has them above.
  module.addListener ??= () => {};
  module.removeListeners ??= () => {};
  return module;
}

/** The names in `implementation` that the spec does not declare (an implementation must not invent methods). */
export function unknownMethods(spec, implementation) {
  const declared = new Set(specMethods(spec).map((m) => m.name));
  declared.add('addListener');
  declared.add('removeListeners');
  return Object.keys(implementation).filter((name) => !declared.has(name));
}
