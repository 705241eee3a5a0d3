import { Button, Card, CardContent } from '@vigil/ui';
import { ArrowLeft, BookOpen, Compass, Home, Layers, RotateCw } from 'lucide-react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { suggestPages } from './page-suggestions.js';

export function NotFoundPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const suggestions = suggestPages(location.pathname);

  // React Router stores its own history index; 0 means this page was the first one opened.
  const canGoBack = typeof window.history.state?.idx === 'number' && window.history.state.idx > 0;

  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-6 pt-40 pb-24 text-center">
      <span className="flex size-14 items-center justify-center rounded-2xl bg-primary-soft text-primary">
        <Compass className="size-7" aria-hidden />
      </span>
      <p className="mt-6 text-sm font-semibold text-primary">404</p>
      <h1 className="mt-2 text-4xl font-semibold tracking-tight">Page Not Found</h1>
      <p className="mt-4 text-muted-foreground">The page you're looking for doesn't exist or has been moved.</p>
      <p className="mt-3 max-w-full truncate rounded-md bg-muted px-2.5 py-1 font-mono text-sm text-muted-foreground">
        {location.pathname}
      </p>

      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button asChild>
          <Link to="/">
            <Home aria-hidden /> Go Home
          </Link>
        </Button>
        <Button variant="outline" onClick={() => (canGoBack ? navigate(-1) : navigate('/'))}>
          <ArrowLeft aria-hidden /> Go Back
        </Button>
        <Button variant="ghost" onClick={() => window.location.reload()}>
          <RotateCw aria-hidden /> Try Again
        </Button>
      </div>

      <Card className="mt-12 w-full text-left">
        <CardContent className="pt-6">
          <h2 className="text-sm font-semibold">You might be looking for</h2>
          <ul className="mt-3 flex flex-col divide-y divide-border">
            {suggestions.map((page) => (
              <li key={page.to}>
                <Link
                  to={page.to}
                  className="flex items-center justify-between py-2.5 text-sm font-medium text-primary hover:underline"
                >
                  {page.label}
                  <span className="font-mono text-xs text-muted-foreground">{page.to}</span>
                </Link>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>

      <div className="mt-6 flex gap-6 text-sm">
        <Link to="/docs" className="inline-flex items-center gap-1.5 text-muted-foreground hover:text-foreground">
          <BookOpen className="size-4" aria-hidden /> Documentation
        </Link>
        <Link to="/services" className="inline-flex items-center gap-1.5 text-muted-foreground hover:text-foreground">
          <Layers className="size-4" aria-hidden /> Services
        </Link>
      </div>
    </section>
  );
}
