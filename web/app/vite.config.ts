import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { vigilAppConfig } from '../vite.shared.js';

export default defineConfig(vigilAppConfig({ defaultPort: 3000, plugins: [react(), tailwindcss()] }));
