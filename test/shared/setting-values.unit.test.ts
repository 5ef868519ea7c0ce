import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/shared/config-error.ts';
import { oneOf, parseByteSize, parseDuration } from '../../src/shared/setting-values.ts';

describe('the shapes of a setting', () => {
  it('takes one of a list, unset or empty being the fallback, and names the choices otherwise', () => {
    const choices = ['on', 'off'] as const;
    expect(oneOf({}, 'SWITCH', choices, 'on')).toBe('on');
    expect(oneOf({ SWITCH: '' }, 'SWITCH', choices, 'on')).toBe('on');
    expect(oneOf({ SWITCH: 'off' }, 'SWITCH', choices, 'on')).toBe('off');
    expect(() => oneOf({ SWITCH: 'OFF' }, 'SWITCH', choices, 'on')).toThrow(ConfigError);
    expect(() => oneOf({ SWITCH: 'OFF' }, 'SWITCH', choices, 'on')).toThrow(
      'SWITCH=OFF is not valid; use one of: on, off',
    );
  });

  it('takes a size in bytes, kilobytes or megabytes, and names the forms otherwise', () => {
    expect(parseByteSize('SIZE', '512kb')).toBe(512 * 1024);
    expect(parseByteSize('SIZE', '1mb')).toBe(1024 * 1024);
    expect(parseByteSize('SIZE', '300')).toBe(300);
    expect(() => parseByteSize('SIZE', 'big')).toThrow(ConfigError);
    expect(() => parseByteSize('SIZE', 'big')).toThrow('SIZE=big is not a size; use e.g. 1mb, 512kb or plain bytes');
  });

  it('takes a duration in whole milliseconds of at least 1', () => {
    expect(parseDuration('WAIT', '1h30m')).toBe(5_400_000);
    expect(parseDuration('WAIT', '1.5ms')).toBe(2);
    expect(() => parseDuration('WAIT', 'soon')).toThrow(
      'WAIT=soon is not a duration; use e.g. 500ms, 30s, 5m, 1h30m or plain seconds',
    );
    expect(() => parseDuration('WAIT', '0.4ms')).toThrow('WAIT=0.4ms must be at least 1ms');
  });
});
