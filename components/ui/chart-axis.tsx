// The value axis of the dashboard's bar charts (sessions per day, usage, the overview's activity):
// a round top and three gridlines (zero, half, top) with their tick labels. Each chart keeps its
// own drawing size, bars and labels; this is only what they share.

/** A round top for the axis: 1, 2 or 5 times a power of ten, at least `max`. */
export function axisTop(max: number): number {
  let top = 1;
  for (let scale = 1; top < max; scale *= 10) top = [1, 2, 5].map((s) => s * scale).find((v) => v >= max) ?? scale * 10;
  return top;
}

export interface GridlinesProps {
  /** Where the plot starts (the tick labels sit left of it) and ends, in drawing units. */
  left: number;
  right: number;
  top: number;
  /** A value's height in the drawing. */
  y: (value: number) => number;
  label: (tick: number) => string;
}

/** The axis's three gridlines across the plot, each with its tick label. */
export function Gridlines({ left, right, top, y, label }: GridlinesProps) {
  return (
    <>
      {[0, top / 2, top].map((tick) => (
        <g key={tick}>
          <line x1={left} x2={right} y1={y(tick)} y2={y(tick)} className="stroke-zinc-100" strokeWidth={1} />
          <text x={left - 6} y={y(tick) + 3.5} textAnchor="end" className="fill-zinc-400 text-[10px] tabular-nums">
            {label(tick)}
          </text>
        </g>
      ))}
    </>
  );
}
