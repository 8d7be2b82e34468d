import type { Locale, Messages } from '../../app/module.ts';

/** Texts of the files screen (the library itself uses the app's `content.files.*` texts). */
export const filesMessages: Record<Locale, Messages> = {
  'en-US': {
    'files.menu': 'Files',
    'files.title': 'File library',
    'files.subtitle': 'Images and documents used by your content',
  },
  'pt-BR': {
    'files.menu': 'Arquivos',
    'files.title': 'Biblioteca de arquivos',
    'files.subtitle': 'Imagens e documentos usados pelo seu conteúdo',
  },
};
