import { useTranslate } from '@refinedev/core';
import { AutoComplete, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { apiData } from '../../providers/http-client.ts';
import { numberOption, stringOption, type InterfaceProps } from './types.ts';

/** One suggestion as the server reads it out of the remote answer. */
interface Suggestion {
  text: string;
  value: string;
}

/**
 * Calls `fetch` for the latest text at most once per `rate` ms (`throttle`: the first at once, the last
 * when the time is up) or `rate` ms after typing stops (`debounce`), Directus's `trigger` options.
 */
function useRateLimited(fetch: (text: string) => void, trigger: string, rate: number): (text: string) => void {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const last = useRef(0);
  const latest = useRef(fetch);
  latest.current = fetch;
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  return (text: string) => {
    if (timer.current) clearTimeout(timer.current);
    const wait = trigger === 'debounce' ? rate : Math.max(0, last.current + rate - Date.now());
    timer.current = setTimeout(() => {
      last.current = Date.now();
      latest.current(text);
    }, wait);
  };
}

/**
 * `input-autocomplete-api`: a text box whose suggestions come from the field's `url` option. The browser
 * never calls that address: `GET /utils/autocomplete/:collection/:field` does, through the server's
 * outbound guard, and reads the list at `resultsPath` (each entry's `textPath` shown, `valuePath` stored).
 */
export function AutocompleteInterface({ field, value, onChange, disabled, options }: InterfaceProps<string>) {
  const translate = useTranslate();
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [failed, setFailed] = useState<string | null>(null);
  const request = useRef(0);
  const load = (text: string) => {
    const current = ++request.current;
    if (text.trim() === '') return setSuggestions([]);
    apiData<Suggestion[]>(`/utils/autocomplete/${encodeURIComponent(field.collection)}/${encodeURIComponent(field.field)}`, { query: { value: text } }).then(
      (found) => {
        if (current !== request.current) return;
        setFailed(null);
        setSuggestions(found ?? []);
      },
      (error: { message?: string }) => {
        if (current !== request.current) return;
        setSuggestions([]);
        setFailed(error.message ?? '');
      },
    );
  };
  const schedule = useRateLimited(load, stringOption(options, 'trigger') ?? 'throttle', numberOption(options, 'rate') ?? 500);
  return (
    <>
      <AutoComplete
        id={`field-${field.field}`}
        value={value ?? ''}
        disabled={disabled}
        placeholder={stringOption(options, 'placeholder')}
        options={suggestions.map((suggestion) => ({ value: suggestion.value, label: suggestion.text }))}
        onSearch={schedule}
        onChange={(text: string) => onChange?.(text === '' && field.schema?.is_nullable !== false ? null : text)}
        style={{ width: '100%', fontFamily: stringOption(options, 'font') === 'monospace' ? 'ui-monospace, SFMono-Regular, Menlo, monospace' : undefined }}
        data-testid={`autocomplete-${field.field}`}
      />
      {failed !== null && (
        <Typography.Text type="secondary" title={failed} style={{ fontSize: 12 }} data-testid={`autocomplete-failed-${field.field}`}>
          {translate('content.autocomplete.failed')}
        </Typography.Text>
      )}
    </>
  );
}
