import { useTranslate } from '@refinedev/core';
import { useEffect, useMemo, useState } from 'react';
import { apiData } from '../../providers/http-client.ts';
import { commentParts, mentionIds } from './comment-text.ts';

type UserName = { id: string; first_name: string | null; last_name: string | null };

/**
 * The names of the users `texts` mention (`@<id>`), read in one request; a user the caller may not read
 * stays unnamed.
 */
export function useMentionNames(texts: ReadonlyArray<string | null | undefined>): Record<string, string> {
  const ids = useMemo(() => [...new Set(texts.flatMap((text) => (text ? mentionIds(text) : [])))].sort(), [texts]);
  const key = ids.join(',');
  const [names, setNames] = useState<Record<string, string>>({});
  useEffect(() => {
    if (ids.length === 0) return;
    let current = true;
    apiData<UserName[]>('/users', { query: { fields: 'id,first_name,last_name', filter: { id: { _in: ids } }, limit: ids.length } })
      .then((users) => {
        if (!current) return;
        const found: Record<string, string> = {};
        for (const user of users ?? []) found[user.id.toLowerCase()] = [user.first_name, user.last_name].filter(Boolean).join(' ');
        setNames(found);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
    // `key` stands for `ids`: a new array with the same ids needs no new request.
  }, [key]);
  return names;
}

/** Text whose `@<id>` mentions show as `@Name` (or "@someone" when the name is unknown). */
export function MentionText({ text, names }: { text: string; names: Record<string, string> }) {
  const translate = useTranslate();
  return (
    <>
      {commentParts(text, {}).map((part, index) =>
        'text' in part ? (
          <span key={index}>{part.text}</span>
        ) : (
          <strong key={index} data-testid="mention">
            @{names[part.mention.toLowerCase()] || translate('content.comments.someone')}
          </strong>
        ),
      )}
    </>
  );
}
