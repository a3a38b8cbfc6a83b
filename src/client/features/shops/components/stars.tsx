const STAR = "M12 3.2l2.6 5.5 6 .8-4.4 4.2 1.1 6L12 16.8l-5.3 2.9 1.1-6-4.4-4.2 6-.8z";

/** Five stars filled to `value` (halves rounded), read out as "4,5 sur 5". */
export function Stars({ value, className = "size-4" }: { value: number; className?: string }) {
  const rounded = Math.round(value * 2) / 2;
  return (
    <span className="inline-flex items-center" role="img" aria-label={`${new Intl.NumberFormat("fr-FR").format(rounded)} sur 5`}>
      {[1, 2, 3, 4, 5].map((i) => {
        const fill = rounded >= i ? 1 : rounded >= i - 0.5 ? 0.5 : 0;
        return (
          <svg key={i} viewBox="0 0 24 24" className={`${className} text-accent-500`} aria-hidden="true">
            <defs>
              <linearGradient id={`star-${i}-${fill}`}>
                <stop offset={`${fill * 100}%`} stopColor="currentColor" />
                <stop offset={`${fill * 100}%`} stopColor="transparent" />
              </linearGradient>
            </defs>
            <path d={STAR} fill={`url(#star-${i}-${fill})`} stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
          </svg>
        );
      })}
    </span>
  );
}
