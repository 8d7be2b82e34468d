import { StrictMode } from 'react';
import { unstableSetRender } from 'antd';
import { createRoot, type Root } from 'react-dom/client';
import { App } from './app/App.tsx';
import '@refinedev/antd/dist/reset.css';

// antd 5 renders its static pop-ups (modal.confirm, message) with React 18's legacy render unless told how
// to render on React 19.
unstableSetRender((node, container) => {
  const host = container as typeof container & { tesseraRoot?: Root };
  host.tesseraRoot ??= createRoot(container);
  const root = host.tesseraRoot;
  root.render(node);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
  };
});

// A page crash caught by the page's error boundary is shown on the error screen (with the report link):
// a warning, not an error, in the console.
createRoot(document.getElementById('root')!, { onCaughtError: (error) => console.warn('A page crashed:', error) }).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
