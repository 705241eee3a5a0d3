import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Input, Label, toast } from '@vigil/ui';
import { Check, CheckCircle2, Copy, Eye, EyeOff, KeyRound, Loader2, RefreshCw, Save, Trash2, XCircle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { errorMessage, isApiError } from '../api/api-error.js';
import { API_KEY_STATUS_LABEL, checkApiKeyFormat, type ApiKeyStatus } from './api-key.js';
import { readApiKey, writeApiKey } from './api-key-store.js';
import { useCheckApiKeyMutation } from './status.api.js';

const COPY_FEEDBACK_MS = 2000;

const STATUS_TONE = { 'not-set': 'neutral', validating: 'brand', connected: 'success', invalid: 'destructive' } as const;

/** Spec "API key configuration card": masked input, show/hide, Save (validates), status, Copy, Clear, Refresh. */
export function ApiKeyCard() {
  const [value, setValue] = useState(() => readApiKey() ?? '');
  const [visible, setVisible] = useState(false);
  const [status, setStatus] = useState<ApiKeyStatus>(() => (readApiKey() ? 'validating' : 'not-set'));
  const [copied, setCopied] = useState(false);
  const [checkKey] = useCheckApiKeyMutation();
  const copyTimer = useRef<number | undefined>(undefined);

  const validate = async (key: string, announce: boolean) => {
    setStatus('validating');
    try {
      await checkKey(key).unwrap();
      setStatus('connected');
      if (announce) toast({ title: 'API Key Validated', description: 'Your API key is connected.' });
    } catch (error) {
      if (isApiError(error) && (error.status === 401 || error.status === 403)) {
        setStatus('invalid');
        toast({ title: 'API Key Invalid', description: errorMessage(error), variant: 'destructive' });
      } else {
        setStatus('invalid');
        toast({
          title: 'Connection Failed',
          description: 'Unable to connect to the API. Please check your API key and network connection.',
          variant: 'destructive',
        });
      }
    }
  };

  // A key kept from earlier in this tab is checked again when the card opens (once: validate is not a dependency).
  useEffect(() => {
    const stored = readApiKey();
    if (stored) void validate(stored, false);
    return () => window.clearTimeout(copyTimer.current);
  }, []);

  const save = () => {
    const checked = checkApiKeyFormat(value);
    if (!checked.ok) {
      toast({ title: 'Error', description: checked.message, variant: 'destructive' });
      return;
    }
    setValue(checked.key);
    writeApiKey(checked.key);
    void validate(checked.key, true);
  };

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value.trim());
      setCopied(true);
      toast({ title: 'Copied', description: 'API key copied to the clipboard.' });
      window.clearTimeout(copyTimer.current);
      copyTimer.current = window.setTimeout(() => setCopied(false), COPY_FEEDBACK_MS);
    } catch {
      toast({ title: 'Copy Failed', description: 'Your browser did not allow copying.', variant: 'destructive' });
    }
  };

  const clear = () => {
    setValue('');
    writeApiKey(null);
    setStatus('not-set');
    toast({ title: 'Cleared', description: 'The API key was removed from this browser.' });
  };

  const refresh = () => {
    const stored = readApiKey();
    if (stored) void validate(stored, true);
    else toast({ title: 'Error', description: 'No API key available. Please refresh the page.', variant: 'destructive' });
  };

  const StatusIcon = status === 'connected' ? CheckCircle2 : status === 'invalid' ? XCircle : status === 'validating' ? Loader2 : KeyRound;

  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="flex flex-col gap-1.5">
          <CardTitle>API key</CardTitle>
          <CardDescription>Paste the key you received after checkout. It stays in this browser tab only.</CardDescription>
        </div>
        <Badge tone={STATUS_TONE[status]} data-testid="api-key-status" data-status={status}>
          <StatusIcon className={status === 'validating' ? 'animate-spin' : undefined} aria-hidden />
          {API_KEY_STATUS_LABEL[status]}
        </Badge>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="flex flex-col gap-2">
          <Label htmlFor="api-key-input">API key</Label>
          <div className="relative">
            <Input
              id="api-key-input"
              type={visible ? 'text' : 'password'}
              autoComplete="off"
              spellCheck={false}
              className="pr-10 font-mono"
              value={value}
              onChange={(event) => setValue(event.target.value)}
              placeholder="64 hexadecimal characters"
            />
            <button
              type="button"
              onClick={() => setVisible((v) => !v)}
              aria-label={visible ? 'Hide API key' : 'Show API key'}
              aria-pressed={visible}
              className="absolute inset-y-0 right-0 flex w-10 cursor-pointer items-center justify-center text-muted-foreground hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
            >
              {visible ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
            </button>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button onClick={save} disabled={status === 'validating'}>
            <Save aria-hidden /> Save
          </Button>
          <Button variant="outline" onClick={() => void copy()} disabled={value.trim() === ''}>
            {copied ? <Check aria-hidden /> : <Copy aria-hidden />} {copied ? 'Copied' : 'Copy'}
          </Button>
          <Button variant="outline" onClick={clear} disabled={value === '' && status === 'not-set'}>
            <Trash2 aria-hidden /> Clear
          </Button>
          <Button variant="ghost" onClick={refresh}>
            <RefreshCw aria-hidden /> Refresh
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
