import type { ComponentType } from 'react';
import { displays, type DisplayProps } from '../../extensions/kinds.ts';
import type { BuiltInDisplay } from '../interfaces/interface-options.ts';
import { CollectionDisplay, TranslationsDisplay } from './catalogue-displays.tsx';
import { FileDisplay, ImageDisplay, RelatedValuesDisplay, UserDisplay } from './related-displays.tsx';
import { BooleanDisplay, ColorDisplay, DateTimeDisplay, FormattedValueDisplay, IconDisplay, LabelsDisplay, MimeTypeDisplay, RatingDisplay, RawDisplay } from './value-displays.tsx';

/** Built-in displays by Directus's ids, with the field types each fits (none: every type). */
export const DISPLAYS: ReadonlyArray<{ id: BuiltInDisplay; component: ComponentType<DisplayProps>; types?: string[] }> = [
  { id: 'raw', component: RawDisplay },
  { id: 'formatted-value', component: FormattedValueDisplay, types: ['string', 'text', 'integer', 'bigInteger', 'float', 'decimal'] },
  { id: 'labels', component: LabelsDisplay, types: ['string', 'integer', 'json', 'csv'] },
  { id: 'boolean', component: BooleanDisplay, types: ['boolean'] },
  { id: 'color', component: ColorDisplay, types: ['string'] },
  { id: 'icon', component: IconDisplay, types: ['string'] },
  { id: 'datetime', component: DateTimeDisplay, types: ['date', 'time', 'dateTime', 'timestamp'] },
  { id: 'rating', component: RatingDisplay, types: ['integer', 'float', 'decimal'] },
  { id: 'mime-type', component: MimeTypeDisplay, types: ['string'] },
  { id: 'related-values', component: RelatedValuesDisplay, types: ['alias', 'uuid', 'integer', 'bigInteger', 'string'] },
  { id: 'user', component: UserDisplay, types: ['uuid'] },
  { id: 'file', component: FileDisplay, types: ['uuid'] },
  { id: 'image', component: ImageDisplay, types: ['uuid'] },
  { id: 'translations', component: TranslationsDisplay, types: ['alias'] },
  { id: 'collection', component: CollectionDisplay, types: ['string'] },
];

// Built-in displays enter the registry exactly as extensions' do (admin/src/extensions/kinds.ts).
for (const display of DISPLAYS) displays.register({ id: display.id, name: display.id, types: display.types, component: display.component });
