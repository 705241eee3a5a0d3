import { SELECTABLE_ALGORITHMS, type Client, type ThresholdConfig } from '@vigil/proto';
import { Badge, Button, Label } from '@vigil/ui';
import { RotateCcw, Save } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useListClientsQuery, useUpdateThresholdsMutation } from '../clients/clients.api.js';
import { notifyFailure, notifySuccess } from '../shell/notify.js';
import { Panel, Section, Select } from '../shell/parts.js';
import {
  DEFAULT_THRESHOLDS,
  GLOBAL_SLIDERS,
  onStep,
  PRESETS,
  presetOf,
  SLIDERS,
  validationMessage,
  type PresetName,
  type SliderSpec,
} from './threshold-presets.js';

/** Spec §2 Threshold Configuration: global sliders, a client-specific editor and three presets. */
export function ThresholdSection({
  clientId,
  onClientChange,
}: {
  clientId: string | null;
  onClientChange: (clientId: string | null) => void;
}) {
  const clients = useListClientsQuery();
  const [global, setGlobal] = useState<ThresholdConfig>({ ...DEFAULT_THRESHOLDS });
  // Global values handed to the client editor, once; it clears this after taking them.
  const [incoming, setIncoming] = useState<Partial<ThresholdConfig> | null>(null);
  const list = clients.data?.clients ?? [];
  const client = list.find((candidate) => candidate.id === clientId) ?? null;

  return (
    <Section
      id="thresholds"
      title="Threshold Configuration"
      description="The scores that decide Blocked, Review and Clear, and how loosely names may match."
    >
      <div className="grid gap-4 lg:grid-cols-2">
        <Panel className="p-4">
          <h3 className="text-sm font-semibold">Global thresholds</h3>
          <p className="mt-1 text-xs text-muted-foreground">
            Every client without custom thresholds is screened with the global defaults. Start from them or a preset
            here, then apply the values to a client.
          </p>
          <Presets current={global} onPick={(preset) => setGlobal({ ...global, ...PRESETS[preset] })} />
          <div className="mt-4 flex flex-col gap-4">
            {GLOBAL_SLIDERS.map((slider) => (
              <Slider
                key={slider.key}
                id={`global-${slider.key}`}
                spec={slider}
                value={global[slider.key]}
                onChange={(value) => setGlobal({ ...global, [slider.key]: value })}
              />
            ))}
          </div>
          <Button
            size="sm"
            variant="outline"
            className="mt-4"
            disabled={client === null}
            onClick={() => setIncoming(pickScores(global))}
          >
            Apply to {client ? client.client_name : 'the selected client'}
          </Button>
        </Panel>

        <Panel className="p-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 className="text-sm font-semibold">Client thresholds</h3>
            {client &&
              (client.threshold_config ? (
                <Badge tone="brand" data-testid="threshold-mode">
                  Custom Thresholds
                </Badge>
              ) : (
                <Badge tone="neutral" data-testid="threshold-mode">
                  Using global thresholds
                </Badge>
              ))}
          </div>
          <Label htmlFor="threshold-client" className="mt-3 block text-xs text-muted-foreground">
            Client
          </Label>
          <Select
            id="threshold-client"
            className="mt-1"
            value={clientId ?? 'none'}
            onChange={(event) => {
              setIncoming(null);
              onClientChange(event.target.value === 'none' ? null : event.target.value);
            }}
          >
            <option value="none">Choose a client</option>
            {list.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.client_name}
              </option>
            ))}
          </Select>
          {client ? (
            <ClientEditor
              key={`${client.id}:${client.updated_at}`}
              client={client}
              incoming={incoming}
              onTaken={() => setIncoming(null)}
            />
          ) : (
            <p className="mt-6 text-sm text-muted-foreground">Choose a client to edit its thresholds.</p>
          )}
        </Panel>
      </div>
    </Section>
  );
}

/** The global panel's sliders are the three scores; the fuzzy counts stay as the client has them. */
function pickScores(config: ThresholdConfig): Partial<ThresholdConfig> {
  return Object.fromEntries(GLOBAL_SLIDERS.map(({ key }) => [key, config[key]]));
}

function ClientEditor({
  client,
  incoming,
  onTaken,
}: {
  client: Client;
  incoming: Partial<ThresholdConfig> | null;
  onTaken: () => void;
}) {
  const [draft, setDraft] = useState<ThresholdConfig>(client.threshold_config ?? { ...DEFAULT_THRESHOLDS });
  const [save, saving] = useUpdateThresholdsMutation();

  useEffect(() => {
    if (incoming === null) return;
    setDraft((current) => ({ ...current, ...incoming }));
    onTaken();
  }, [incoming, onTaken]);

  async function onSave() {
    const problems = validationMessage(draft);
    if (problems !== null) {
      notifyFailure('Validation Error', undefined, problems);
      return;
    }
    try {
      await save({ id: client.id, threshold_config: draft }).unwrap();
      notifySuccess('Thresholds Saved');
    } catch (error) {
      notifyFailure('Save Failed', undefined, `Failed to save client thresholds${detail(error)}`);
    }
  }

  async function onReset() {
    try {
      await save({ id: client.id, threshold_config: null }).unwrap();
      notifySuccess('Thresholds Reset');
    } catch (error) {
      notifyFailure('Reset Failed', undefined, `Failed to reset client thresholds${detail(error)}`);
    }
  }

  return (
    <div className="mt-4" data-testid="client-threshold-editor">
      <Presets current={draft} onPick={(preset) => setDraft({ ...PRESETS[preset], ...pinnedOf(draft) })} />
      <div className="mt-4 flex flex-col gap-4">
        {SLIDERS.map((slider) => (
          <Slider
            key={slider.key}
            id={`client-${slider.key}`}
            spec={slider}
            value={draft[slider.key]}
            onChange={(value) => setDraft({ ...draft, [slider.key]: value })}
          />
        ))}
      </div>
      <AlgorithmChoice
        value={draft.ALGORITHM}
        onChange={(algorithm) => {
          const { ALGORITHM: _previous, ...scores } = draft;
          setDraft(algorithm ? { ...scores, ALGORITHM: algorithm } : scores);
        }}
      />
      <div className="mt-4 flex flex-wrap gap-2">
        <Button size="sm" onClick={() => void onSave()} disabled={saving.isLoading}>
          <Save aria-hidden /> Save Thresholds
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={() => void onReset()}
          disabled={saving.isLoading || client.threshold_config === null}
        >
          <RotateCcw aria-hidden /> Reset to Global
        </Button>
      </div>
    </div>
  );
}

type Algorithm = (typeof SELECTABLE_ALGORITHMS)[number];
const NEWEST = SELECTABLE_ALGORITHMS.at(-1)!;

/** A preset sets the scores only: the algorithm a client is pinned to stays as it was. */
function pinnedOf(config: ThresholdConfig): Pick<ThresholdConfig, 'ALGORITHM'> {
  return config.ALGORITHM ? { ALGORITHM: config.ALGORITHM } : {};
}

/**
 * Issue #32: a new matching version becomes the default for every client that is not pinned; a
 * bank that validated an older one is pinned to it until it has validated the next.
 */
function AlgorithmChoice({ value, onChange }: { value?: Algorithm; onChange: (value?: Algorithm) => void }) {
  return (
    <div className="mt-4">
      <Label htmlFor="client-ALGORITHM" className="text-sm">
        Matching algorithm
      </Label>
      <Select
        id="client-ALGORITHM"
        className="mt-1"
        value={value ?? 'default'}
        onChange={(event) => onChange(event.target.value === 'default' ? undefined : (event.target.value as Algorithm))}
      >
        <option value="default">Always the newest (now {NEWEST})</option>
        {SELECTABLE_ALGORITHMS.map((name) => (
          <option key={name} value={name}>
            Pinned to {name}
          </option>
        ))}
      </Select>
      <p className="mt-1 text-xs text-muted-foreground">Every screening answer names the algorithm that produced it.</p>
    </div>
  );
}

function detail(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message !== '' ? `: ${message}` : '';
}

function Presets({ current, onPick }: { current: ThresholdConfig; onPick: (preset: PresetName) => void }) {
  const active = presetOf(current);
  return (
    <div className="mt-3 flex flex-wrap gap-2" role="group" aria-label="Presets">
      {(Object.keys(PRESETS) as PresetName[]).map((name) => (
        <Button
          key={name}
          size="sm"
          variant={active === name ? 'secondary' : 'outline'}
          aria-pressed={active === name}
          onClick={() => onPick(name)}
        >
          {name}
        </Button>
      ))}
    </div>
  );
}

function Slider({
  id,
  spec,
  value,
  onChange,
}: {
  id: string;
  spec: SliderSpec;
  value: number;
  onChange: (value: number) => void;
}) {
  const shown = spec.percent ? `${Math.round(value * 100)}%` : String(value);
  return (
    <div>
      <div className="flex items-center justify-between gap-2 text-sm">
        <Label htmlFor={id}>{spec.label}</Label>
        <output htmlFor={id} className="font-medium tabular-nums">
          {shown}
        </output>
      </div>
      <input
        id={id}
        type="range"
        min={spec.min}
        max={spec.max}
        step={spec.step}
        value={value}
        onChange={(event) => onChange(onStep(Number(event.target.value), spec.step))}
        className="mt-2 w-full cursor-pointer accent-[var(--color-primary)]"
      />
    </div>
  );
}
