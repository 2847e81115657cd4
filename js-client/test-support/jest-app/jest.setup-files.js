// The app's own setupFiles: run before each test file, as under React Native's preset.
global.__APP_SETUP_FILE_RAN__ = true;
