import { useTranslate } from '@refinedev/core';
import { Button, Input, Typography } from 'antd';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { stringOption, type InterfaceProps } from '../types.ts';
import { codeLanguage } from './code-languages.ts';
import { findJsonProblem, type JsonProblem } from './json-problem.ts';

const CodeEditor = lazy(() => import('./code-editor.tsx'));

/** The text a stored value is edited as: JSON fields show their value as indented JSON. */
function textOf(value: unknown, jsonField: boolean): string {
  if (value === null || value === undefined) return '';
  if (!jsonField && typeof value === 'string') return value;
  return JSON.stringify(value, null, 2);
}

/**
 * Code (`input-code`: `language`, `lineNumber`, `lineWrapping`, `template`): a CodeMirror editor with the
 * language's highlighting. JSON (the language, or any json field) is linted: the editor underlines where
 * the text stops being JSON and the line and column are said under it; a json field stores the parsed
 * value (the last valid one while the text is not JSON), other fields the text.
 */
export function CodeInterface({ field, value, onChange, disabled, options }: InterfaceProps<unknown>) {
  const translate = useTranslate();
  const jsonField = field.type === 'json';
  const language = jsonField ? 'JSON' : codeLanguage(options.language);
  const json = language === 'JSON';
  const [text, setText] = useState(() => textOf(value, jsonField));
  // What this field last sent to the form, to tell a value set from outside (the item loaded) from its own.
  const sent = useRef<unknown>(value);
  useEffect(() => {
    if (value !== sent.current) {
      sent.current = value;
      setText(textOf(value, jsonField));
    }
  }, [value, jsonField]);

  const problem = json ? findJsonProblem(text) : null;
  const describe = (found: JsonProblem) =>
    found.character === null
      ? translate('content.code.jsonEnds', { line: found.line, column: found.column })
      : translate('content.code.jsonUnexpected', { character: found.character, line: found.line, column: found.column });
  const send = (next: unknown) => {
    sent.current = next;
    onChange?.(next);
  };
  const changeText = (next: string) => {
    setText(next);
    if (next.trim() === '') return send(null);
    if (!jsonField) return send(next);
    if (!findJsonProblem(next)) send(JSON.parse(next));
  };
  const template = stringOption(options, 'template');

  return (
    <div data-testid={`code-${field.field}`}>
      <Suspense fallback={<Input.TextArea value={text} readOnly autoSize={{ minRows: 4, maxRows: 30 }} style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 }} />}>
        <CodeEditor
          id={`field-${field.field}`}
          label={field.field}
          text={text}
          onText={changeText}
          language={language}
          json={json}
          jsonMessage={describe}
          lineNumbers={options.lineNumber !== false}
          lineWrapping={options.lineWrapping === true}
          disabled={disabled}
          placeholder={template}
        />
      </Suspense>
      {problem && (
        <Typography.Text type="danger" data-testid="code-problem">
          {describe(problem)}
        </Typography.Text>
      )}
      {template && !disabled && text.trim() === '' && (
        <Button size="small" type="link" style={{ paddingInline: 0 }} onClick={() => changeText(template)} data-testid="code-fill-template">
          {translate('content.code.fillTemplate')}
        </Button>
      )}
    </div>
  );
}
