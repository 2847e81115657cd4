// ExceptionsManager: what React Native's ExceptionsManager reports (a render error no boundary caught, a
// handler's exception); each report is recorded and, when fatal, fails the next render() or settled().

export const name = 'ExceptionsManager';

export function create(app) {
  const report = (data) => {
    if (data?.isFatal) app.reportNativeException(data);
  };
  return {
    reportFatalException: (message, stack, id) => report({ message, stack, id, isFatal: true }),
    reportSoftException() {},
    reportException: (data) => report(data),
    updateExceptionMessage() {},
    dismissRedbox() {},
  };
}
