// A lawsuit's life as a sequence of dated steps. Only the steps dated at or before the time of observation
// exist, so phase, status, last_step and steps_count move as the sandbox clock moves. Each step is a movement
// of the CNJ's table, chosen among those that fit its stage of the case and its instance.

import { hash, unit } from './random.js';
import { DAY_MS, type Plan } from './plan.js';
import { tpuMovement, type TpuItem } from './tpu.js';

export type Stage = 'start' | 'early' | 'judgment' | 'appeal' | 'final' | 'execution' | 'archive' | 'reactivated';

export interface StepPoint { k: number; dateMs: number; stage: Stage; movement: TpuItem }

const codes = (...list: string[]) => list.map(tpuMovement);
/** Movements by stage, first and second instance. */
const MOVEMENTS: Record<Exclude<Stage, 'reactivated'>, [TpuItem[], TpuItem[]]> = {
  start: [codes('26'), codes('26')],
  early: [codes('51', '11010', '60', '85', '11383', '92', '970', '1051'), codes('51', '11010', '85', '92', '1051')],
  judgment: [codes('219', '220', '221'), codes('237', '239')],
  appeal: [codes('85', '123', '51'), codes('51', '11010', '92')],
  final: [codes('848'), codes('848')],
  execution: [codes('60', '85', '11383'), codes('11383', '92')],
  archive: [codes('246', '22'), codes('22')],
};
/** A criminal judgment convicts or acquits: no partial procedência. */
const CRIMINAL_JUDGMENT = codes('219', '220');

function stageOf(p: Plan, k: number): Stage {
  const last = p.stepsTotal - 1;
  if (k === 0) return 'start';
  if (p.ending === 'reactivated' && last >= 5) {
    if (k === last - 2) return 'archive';
    if (k > last - 2) return 'reactivated';
  } else if ((p.ending === 'archived' || p.ending === 'cancelled') && k === last) return 'archive';
  if (p.stepsTotal >= 5) {
    const judgment = Math.round(0.5 * last);
    const final = Math.round(0.75 * last);
    if (k === judgment) return 'judgment';
    if (k === final) return 'final';
    if (k > judgment && k < final) return 'appeal';
    if (k > final) return 'execution';
  }
  return 'early';
}

/** The steps of lawsuit p dated at or before t, oldest first. */
export function stepsUpTo(p: Plan, seed: number, t: number): StepPoint[] {
  const out: StepPoint[] = [];
  let date = p.distributionMs;
  const second = p.instance >= 2 ? 1 : 0;
  for (let k = 0; k < p.stepsTotal; k++) {
    if (k > 0) {
      const h = hash(seed, 700, p.index, k);
      date += Math.floor(p.gapDays * (0.3 + 1.4 * unit(h)) * DAY_MS) + (h % 3_600_000);
    }
    if (date > t) break;
    const stage = stageOf(p, k);
    const list = stage === 'judgment' && !second && p.kind.group === 'criminal' ? CRIMINAL_JUDGMENT : MOVEMENTS[stage === 'reactivated' ? 'early' : stage][second];
    out.push({ k, dateMs: date, stage, movement: list[hash(seed, 701, p.index, k) % list.length] });
  }
  return out;
}

export function phaseOf(p: Plan, seed: number, last: StepPoint | undefined): string {
  if (!last) return 'Inicial';
  switch (last.stage) {
    case 'start': return 'Inicial';
    case 'early': return last.k < p.stepsTotal * 0.2 ? 'Inicial' : 'Aguardando execução ou julgamento';
    case 'judgment': return 'Sentença';
    case 'appeal': return 'Recurso';
    case 'final': return 'Trânsito em julgado ou acordo';
    case 'execution': return hash(seed, 702, p.index) % 2 === 0 ? 'Execução' : 'Execução ou cumprimento';
    case 'archive': return p.ending === 'cancelled' ? 'Cancelado' : 'Arquivado';
    case 'reactivated': return 'Reativado';
  }
}

export function statusOf(last: StepPoint | undefined): string {
  return last?.stage === 'archive' ? 'Finalizado' : 'Ativo';
}
