import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { vigilAppConfig } from '../web/vite.shared.js';

export default defineConfig(vigilAppConfig({ defaultPort: 3001, plugins: [react(), tailwindcss()] }));
