// `@testing-library/react-native/dont-cleanup-after-each`: as RNTL's, no cleanup() registered after each test.
process.env.RNTL_SKIP_AUTO_CLEANUP = 'true';
