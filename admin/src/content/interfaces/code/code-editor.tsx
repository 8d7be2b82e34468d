import { closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, defaultHighlightStyle, foldGutter, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers, placeholder as placeholderText } from '@codemirror/view';
import { theme } from 'antd';
import { useEffect, useRef } from 'react';
import { CODE_LANGUAGES, type CodeLanguage } from './code-languages.ts';
import { findJsonProblem } from './json-problem.ts';

/** What the editor shows and reports; the text is the source of truth, the interface turns it into a value. */
export interface CodeEditorProps {
  id: string;
  text: string;
  onText: (text: string) => void;
  language: CodeLanguage | null;
  /** Lint as JSON: the place the text stops being JSON is underlined, with `jsonMessage` as its note. */
  json: boolean;
  jsonMessage: (problem: NonNullable<ReturnType<typeof findJsonProblem>>) => string;
  lineNumbers: boolean;
  lineWrapping: boolean;
  disabled?: boolean;
  placeholder?: string;
  label?: string;
}

/**
 * CodeMirror 6 (its own chunk: it loads the first time a code field is shown). Language, line numbers,
 * wrapping and read-only are compartments, switched in place when options change.
 */
export default function CodeEditor(props: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const replacing = useRef(false);
  const latest = useRef(props);
  latest.current = props;
  const compartments = useRef({ language: new Compartment(), gutter: new Compartment(), wrap: new Compartment(), editable: new Compartment(), lint: new Compartment(), placeholder: new Compartment() });
  const { token } = theme.useToken();

  useEffect(() => {
    const parts = compartments.current;
    const initial = latest.current;
    const editor = new EditorView({
      parent: host.current as HTMLDivElement,
      state: EditorState.create({
        doc: initial.text,
        extensions: [
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          closeBrackets(),
          highlightActiveLine(),
          highlightSelectionMatches(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, indentWithTab]),
          EditorView.contentAttributes.of({ id: initial.id, ...(initial.label ? { 'aria-label': initial.label } : {}) }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged && !replacing.current) latest.current.onText(update.state.doc.toString());
          }),
          EDITOR_THEME,
          parts.language.of([]),
          parts.gutter.of([]),
          parts.wrap.of([]),
          parts.editable.of([]),
          parts.lint.of([]),
          parts.placeholder.of([]),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, []);

  // A value set from outside (the item loaded, the form reset) replaces the text; typing never comes back here.
  useEffect(() => {
    const editor = view.current;
    if (!editor || editor.state.doc.toString() === props.text) return;
    // Not reported back as typing: the form's value did not change, so it must not turn dirty.
    replacing.current = true;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: props.text } });
    replacing.current = false;
  }, [props.text]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const parts = compartments.current;
    const effects = [
      parts.gutter.reconfigure(props.lineNumbers ? [lineNumbers(), highlightActiveLineGutter(), foldGutter()] : []),
      parts.wrap.reconfigure(props.lineWrapping ? EditorView.lineWrapping : []),
      parts.editable.reconfigure([EditorView.editable.of(!props.disabled), EditorState.readOnly.of(Boolean(props.disabled))]),
      parts.placeholder.reconfigure(props.placeholder ? placeholderText(props.placeholder) : []),
      parts.lint.reconfigure(props.json ? [lintGutter(), jsonLinter(() => latest.current.jsonMessage)] : []),
    ];
    editor.dispatch({ effects });
  }, [props.lineNumbers, props.lineWrapping, props.disabled, props.placeholder, props.json]);

  useEffect(() => {
    const load = props.language ? CODE_LANGUAGES[props.language].load : null;
    let current = true;
    const apply = (extension: Extension) => current && view.current?.dispatch({ effects: compartments.current.language.reconfigure(extension) });
    if (!load) apply([]);
    else void load().then(apply, () => apply([]));
    return () => {
      current = false;
    };
  }, [props.language]);

  return (
    <div
      ref={host}
      data-testid="code-editor"
      style={{
        border: `1px solid ${token.colorBorder}`,
        borderRadius: token.borderRadius,
        background: props.disabled ? token.colorBgContainerDisabled : token.colorBgContainer,
        fontSize: 13,
        overflow: 'hidden',
      }}
    />
  );
}

const EDITOR_THEME = EditorView.theme({
  '&.cm-focused': { outline: 'none' },
  '.cm-content, .cm-gutter': { minHeight: '96px' },
  '.cm-scroller': { maxHeight: '640px', overflow: 'auto', fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' },
});

/** The JSON lint: one diagnostic where the text stops being JSON. */
function jsonLinter(message: () => CodeEditorProps['jsonMessage']): Extension {
  return linter(
    (view): Diagnostic[] => {
      const text = view.state.doc.toString();
      const problem = findJsonProblem(text);
      if (!problem) return [];
      const to = Math.min(problem.offset + 1, text.length);
      return [{ from: Math.min(problem.offset, to), to, severity: 'error', message: message()(problem) }];
    },
    { delay: 300 },
  );
}
