import type { Entity } from '@vigil/lists';
import { nameFeatures } from '@vigil/matching';

/**
 * How informative a name token is within one partition: the inverse document frequency
 * over its list names, computed exactly as @vigil/matching's in-memory index computes it,
 * so an engine that retrieves elsewhere (Elasticsearch) scores candidates identically.
 */
export class NameRarity {
  private constructor(
    private readonly documentFrequency: Map<string, number>,
    private readonly names: number,
  ) {}

  static fromEntities(entities: Iterable<Entity>): NameRarity {
    const df = new Map<string, number>();
    let names = 0;
    for (const entity of entities) {
      for (const name of entity.names) {
        if (!name.full || !name.full.trim()) continue;
        names++;
        const terms = new Set(nameFeatures(name.full, entity.type).forms.flatMap((f) => f.terms));
        for (const term of terms) df.set(term, (df.get(term) ?? 0) + 1);
      }
    }
    return new NameRarity(df, names);
  }

  /** The rarity of several partitions searched together: frequencies and name counts add up. */
  static combine(parts: readonly NameRarity[]): NameRarity {
    if (parts.length === 1) return parts[0]!;
    const df = new Map<string, number>();
    let names = 0;
    for (const part of parts) {
      names += part.names;
      for (const [term, n] of part.documentFrequency) df.set(term, (df.get(term) ?? 0) + n);
    }
    return new NameRarity(df, names);
  }

  readonly rarity = (text: string): number => {
    const frequency = this.documentFrequency.get(text);
    if (!frequency) return 1;
    const logN = Math.log(this.names + 1);
    return Math.max(0, Math.min(1, Math.log((this.names + 1) / frequency) / logN));
  };
}
