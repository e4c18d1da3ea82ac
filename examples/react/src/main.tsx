import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient } from '@tanstack/react-query';
import { SongmintProvider } from '@songmint/react';
import { App } from './App.tsx';
import './style.css';
import { API_URL, wagmiConfig } from './config.ts';

const root = document.getElementById('root');
if (root === null) throw new Error('index.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <SongmintProvider apiUrl={API_URL} config={wagmiConfig} queryClient={new QueryClient()}>
      <App />
    </SongmintProvider>
  </StrictMode>,
);
