import type { Messages } from './messages';

// Message keys and their placeholders are checked at compile time in every `t()` call.
declare module 'use-intl' {
  interface AppConfig {
    Messages: Messages;
  }
}
