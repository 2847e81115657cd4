// Generated from `bridged ops` (the daemon's op table, each op's `spec` in Sources/BridgeCore/Ops/,
// and its session limits) by
//   node js-client/scripts/generate.js --bin .build/debug/bridged
// Do not edit: run it again when an op or a limit changes (js-client/test/generated.test.js fails until then).
//
// OPS, in protocol.md's order ("Operations"); every other list of ops in the client derives from it. For each op:
// - `batch`: true when a batch may hold it, else the message a batch holding it is refused with;
// - `safeToRepeat`: sent again on the next connection when the connection was lost before its response
//   (repeating it changes nothing);
// - `sessionFree`: does not depend on the session's views, so it is still sent after the daemon started a fresh
//   session on a reconnect (a reset); the others reject with `session_reset`;
// - `needsLayout`: its sample needs the session's layout on;
// - `fields`, `sample`, `result`: its request's fields, a request it answers (after SAMPLE_SETUP; "<session>" is
//   the session's id) and its result's shape, in the schema language of lib/op-schema.js.
const freeze = (value) => {
  if (value !== null && typeof value === 'object') for (const inner of Object.values(value)) freeze(inner);
  return Object.freeze(value);
};

export const OPS = freeze({
  hello: {
    batch: "batch: hello cannot be part of a batch",
    safeToRepeat: false,
    sessionFree: false,
    needsLayout: false,
    fields: {"protocol":"integer","client?":"string","resume?":{"session":"string","token?":"string","ack?":"integer"}},
    sample: {"op":"hello","protocol":1,"client":"sample"},
    result: {
      $name: "HelloResult",
      protocol: "integer",
      server: "string",
      session: "string",
      token: "string",
      limits: {"*":"integer"},
      maxFrameBytes: "integer",
      components: {"$name":"Components","*":"object"},
      propTypes: {
        "*": {
          $name: "PropTypeInfo",
          nativeType: "string",
          "nativeArrayType?": "string",
          deepDiffs: "boolean",
          typeScript: "string",
          reportedTypeScript: "string",
          "note?": "string",
        },
      },
      "resumed?": "boolean",
      "reason?": "string",
      "seq?": "integer",
    },
  },
  create: {
    batch: true,
    safeToRepeat: false,
    sessionFree: false,
    needsLayout: false,
    fields: {"tag":"integer","component":"string","props?":"object","parent?":"integer","index?":"integer"},
    sample: {"op":"create","tag":3,"component":"View","props":{},"parent":1,"index":0},
    result: {"tag":"integer"},
  },
  update: {
    batch: true,
    safeToRepeat: false,
    sessionFree: false,
    needsLayout: false,
    fields: {"tag":"integer","props":"object"},
    sample: {"op":"update","tag":2,"props":{"title":"Updated"}},
    result: {"changed":["string"]},
  },
  setChildren: {
    batch: true,
    safeToRepeat: false,
    sessionFree: false,
    needsLayout: false,
    fields: {"tag":"integer","children":["integer"]},
    sample: {"op":"setChildren","tag":1,"children":[2]},
    result: {"children":["integer"]},
  },
  delete: {
    batch: true,
    safeToRepeat: false,
    sessionFree: false,
    needsLayout: false,
    fields: {"tag":"integer"},
    sample: {"op":"delete","tag":1},
    result: {"deleted":["integer"]},
  },
  subscribe: {
    batch: true,
    safeToRepeat: false,
    sessionFree: false,
    needsLayout: false,
    fields: {"tag":"integer","event":"string","phase?":"string"},
    sample: {"op":"subscribe","tag":2,"event":"countChange","phase":"bubble"},
    result: {},
  },
  unsubscribe: {
    batch: true,
    safeToRepeat: false,
    sessionFree: false,
    needsLayout: false,
    fields: {"tag":"integer","event":"string","phase?":"string"},
    sample: {"op":"unsubscribe","tag":2,"event":"countChange"},
    result: {},
  },
  command: {
    batch: true,
    safeToRepeat: false,
    sessionFree: false,
    needsLayout: false,
    fields: {"tag":"integer","name":"string","args?":["json"]},
    sample: {"op":"command","tag":2,"name":"press","args":[]},
    result: {},
  },
  emit: {
    batch: true,
    safeToRepeat: false,
    sessionFree: false,
    needsLayout: false,
    fields: {"tag":"integer","event":"string","payload?":"object"},
    sample: {"op":"emit","tag":2,"event":"countChange","payload":{"count":1}},
    result: {},
  },
  touch: {
    batch: true,
    safeToRepeat: false,
    sessionFree: false,
    needsLayout: false,
    fields: {
      tag: "integer",
      phase: "string",
      "identifier?": "integer",
      "pageX?": "number",
      "pageY?": "number",
      "locationX?": "number",
      "locationY?": "number",
      "timestamp?": "number",
    },
    sample: {
      op: "touch",
      tag: 2,
      phase: "start",
      identifier: 1,
      pageX: 1,
      pageY: 2,
      locationX: 1,
      locationY: 2,
      timestamp: 0,
    },
    result: {},
  },
  define: {
    batch: "batch: define cannot be part of a batch",
    safeToRepeat: false,
    sessionFree: false,
    needsLayout: false,
    fields: {"schema?":"object","untyped?":["string"]},
    sample: {"op":"define","untyped":["SampleUntyped"]},
    result: {
      $name: "DefineResult",
      components: {"$name":"Components","*":"object"},
      unchanged: ["string"],
      skipped: ["string"],
    },
  },
  components: {
    batch: true,
    safeToRepeat: true,
    sessionFree: false,
    needsLayout: false,
    fields: {},
    sample: {"op":"components"},
    result: {"components":{"$name":"Components","*":"object"}},
  },
  inspect: {
    batch: true,
    safeToRepeat: true,
    sessionFree: false,
    needsLayout: false,
    fields: {"tag":"integer"},
    sample: {"op":"inspect","tag":2},
    result: {
      $name: "InspectResult",
      tag: "integer",
      component: "string",
      props: "object",
      parent: "integer|null",
      children: ["integer"],
      render: "string",
      renders: "integer",
      commands: [{"name":"string","args":["json"]}],
      "untyped?": "boolean",
      "layout?": {"$name":"Frame","x":"number","y":"number","width":"number","height":"number"},
      "layoutInWindow?": {"$name":"Frame","x":"number","y":"number","width":"number","height":"number"},
    },
  },
  layout: {
    batch: "batch: layout cannot be part of a batch",
    safeToRepeat: true,
    sessionFree: false,
    needsLayout: true,
    fields: {
      "yoga?": "string",
      "window?": {
        "width?": "number",
        "height?": "number",
        "scale?": "number",
        "fontScale?": "number",
        "insets?": {"top?":"number","right?":"number","bottom?":"number","left?":"number"},
      },
      "fonts?": {"*":"string"},
      "at?": {"x":"number","y":"number"},
      "session?": "string",
    },
    sample: {"op":"layout","window":{"width":320,"height":480}},
    result: {
      $name: "LayoutResult",
      $oneOf: [
        {
          enabled: "boolean",
          yoga: {"hash":"string","library":"string","compiled":"boolean"},
          window: {
            $name: "LayoutWindow",
            width: "number",
            height: "number",
            scale: "number",
            fontScale: "number",
            insets: {"top":"number","right":"number","bottom":"number","left":"number"},
          },
        },
        {"enabled":"boolean","compiler":"string|null","reason?":"string"},
        {"hit":{"$oneOf":[{"tag":"integer","component":"string","x":"number","y":"number"},"null"]}},
      ],
    },
  },
  screenshot: {
    batch: "batch: screenshot cannot be part of a batch",
    safeToRepeat: true,
    sessionFree: false,
    needsLayout: true,
    fields: {"scale?":"number","frames?":"boolean","session?":"string"},
    sample: {"op":"screenshot","scale":1,"frames":true},
    result: {
      $name: "ScreenshotWire",
      width: "integer",
      height: "integer",
      scale: "number",
      png: "string",
      "frames?": [["number"]],
    },
  },
  batch: {
    batch: "batch: a batch cannot contain another batch",
    safeToRepeat: false,
    sessionFree: false,
    needsLayout: false,
    fields: {"ops":["object"],"more?":"boolean","at?":"integer"},
    sample: {"op":"batch","ops":[{"op":"update","tag":2,"props":{"count":1}},{"op":"ping"}]},
    result: {"$oneOf":[{"results":["object"]},{"staged":"integer"}]},
  },
  ack: {
    batch: "batch: ack cannot be part of a batch",
    safeToRepeat: false,
    sessionFree: false,
    needsLayout: false,
    fields: {"seq":"integer"},
    sample: {"op":"ack","seq":0},
    result: {"acked":"integer","retained":"integer"},
  },
  ping: {
    batch: true,
    safeToRepeat: true,
    sessionFree: true,
    needsLayout: false,
    fields: {},
    sample: {"op":"ping"},
    result: {},
  },
  stats: {
    batch: true,
    safeToRepeat: true,
    sessionFree: true,
    needsLayout: false,
    fields: {},
    sample: {"op":"stats"},
    result: {"$name":"StatsResult","sessions":"integer","views":"integer","sessionViews":"integer","seq":"integer"},
  },
  sessions: {
    batch: "batch: sessions cannot be part of a batch",
    safeToRepeat: false,
    sessionFree: false,
    needsLayout: false,
    fields: {},
    sample: {"op":"sessions"},
    result: {
      sessions: [
        {
          $name: "SessionSummary",
          session: "string",
          client: "string|null",
          connected: "boolean",
          views: "integer",
          seq: "integer",
          observers: "integer",
        },
      ],
    },
  },
  observe: {
    batch: "batch: observe cannot be part of a batch",
    safeToRepeat: false,
    sessionFree: false,
    needsLayout: false,
    fields: {"session":"string","tree?":"boolean","layout?":"boolean","grouped?":"boolean"},
    sample: {"op":"observe","session":"<session>"},
    result: {
      $name: "ObserveSnapshot",
      session: "string",
      client: "string|null",
      connected: "boolean",
      seq: "integer",
      acked: "integer",
      views: ["object"],
      events: ["object"],
    },
  },
  unobserve: {
    batch: "batch: unobserve cannot be part of a batch",
    safeToRepeat: false,
    sessionFree: false,
    needsLayout: false,
    fields: {"session":"string"},
    sample: {"op":"unobserve","session":"<session>"},
    result: {},
  },
  bye: {
    batch: "batch: bye cannot be part of a batch",
    safeToRepeat: false,
    sessionFree: false,
    needsLayout: false,
    fields: {},
    sample: {"op":"bye"},
    result: {},
  },
});

/**
 * The limits a recording's meta record and hello's `result.limits` carry (the daemon's SessionLimit.all), each with
 * the serve flag that sets it and its least value.
 */
export const LIMITS = freeze([
  {"name":"maxViewsPerSession","flag":"--max-views","minimum":1},
  {"name":"maxOpsPerBatch","flag":"--max-batch-ops","minimum":1},
  {"name":"eventBuffer","flag":"--event-buffer","minimum":0},
  {"name":"maxRequestOutputBytes","flag":"--max-request-output-bytes","minimum":1},
  {"name":"maxBatchBytes","flag":"--max-batch-bytes","minimum":1},
]);

/** The requests each op's sample is sent after, on a session of its own. */
export const SAMPLE_SETUP = freeze([
  {"op":"hello","protocol":1},
  {"op":"create","tag":1,"component":"View"},
  {"op":"create","tag":2,"component":"SwiftUIButton","props":{"title":"Sample"},"parent":1},
]);

/** The names of the ops whose entry has `flag` set (`true`). */
export function opsWhere(flag) {
  return new Set(Object.keys(OPS).filter((name) => OPS[name][flag] === true));
}
