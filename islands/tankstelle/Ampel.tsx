import type { Tank } from './model';

/** The traffic light: icon, text and colour together, never the colour alone. */
export function Ampel({ tank }: { tank: Pick<Tank, 'ampel' | 'ampelText' | 'ampelFarbe' | 'ampelIcon'> }) {
  return (
    <span className={`ampel ampel-${tank.ampelFarbe}`} data-ampel={tank.ampel}>
      <svg className="icon" aria-hidden="true"><use href={`#i-${tank.ampelIcon}`} /></svg>
      {tank.ampelText}
    </span>
  );
}
