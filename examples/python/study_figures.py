"""Redraws two figures with matplotlib from the Python package `aliasing`:

- the study's Fig. 6: P(alias | error) of the 16-bit maximal-length CRC
  against frame length at BERs 1e-4 to 1e-8 (exact, Markov chain), with the
  2^-16 asymptote;
- the joint escape of FCS + IPv4 + TCP (``alias stack``) against the product
  of the three checks' escapes taken as independent.

Usage: python examples/python/study_figures.py [OUT_DIR]   (default: .)
Needs matplotlib (``pip install "aliasing[matplotlib]"``); without it the
script says so and exits without drawing.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import aliasing

STUDY_BERS = [1e-4, 1e-5, 1e-6, 1e-7, 1e-8]


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(".")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: nothing drawn (pip install matplotlib)")
        return 0
    out.mkdir(parents=True, exist_ok=True)

    # Fig. 6: one curve per BER
    fig6 = aliasing.curve("16", bits="log:64:65536:40", ber=STUDY_BERS, method="markov", progress=True)
    bits, ber, alias = fig6.column("bits"), fig6.column("ber"), fig6.column("p_alias_given_error")
    fig, ax = plt.subplots(figsize=(8, 5))
    for b in STUDY_BERS:
        sel = ber == b
        ax.loglog(bits[sel], alias[sel], label=f"BER {b:g}")
    ax.axhline(2.0**-16, color="grey", linestyle="--", label="2^-16")
    ax.set_xlabel("codeword length (bits)")
    ax.set_ylabel("P(alias | error)")
    ax.set_title(f"Fig. 6: {fig6.check['name']} ({fig6.method})")
    ax.legend()
    fig.savefig(out / "fig6.png", dpi=120)
    print(f"wrote {out / 'fig6.png'}")

    # the joint escape of FCS + IPv4 + TCP against the independence product
    bers = [1e-4, 1e-5, 1e-6]
    st = aliasing.stack("ethernet-tcp", bytes=[64, 128, 256, 594], ber=bers, progress=True)
    nbytes, sber = st.column("bytes"), st.column("ber")
    joint, product = st.column("joint.estimate"), st.column("independence_product")
    # where the enumeration leaves only a certified bracket there is no
    # estimate (NaN): its upper end is drawn instead, as a bound
    high = st.column("joint.high")
    fig, ax = plt.subplots(figsize=(8, 5))
    for i, b in enumerate(bers):
        sel = sber == b
        color = f"C{i}"
        ax.loglog(nbytes[sel], joint[sel], color=color, marker="o", label=f"joint, BER {b:g}")
        ax.loglog(nbytes[sel], product[sel], color=color, linestyle=":", label=f"product, BER {b:g}")
        bound = sel & np.isnan(joint)
        if bound.any():
            ax.loglog(nbytes[bound], high[bound], color=color, marker="v", linestyle="none", label=f"joint at most, BER {b:g}")
    ax.set_xlabel("frame length (bytes)")
    ax.set_ylabel("P(undetected by FCS, IPv4 and TCP)")
    ax.set_title("ethernet-tcp: joint escape against the independence product")
    ax.legend(fontsize="small")
    fig.savefig(out / "joint_vs_product.png", dpi=120)
    print(f"wrote {out / 'joint_vs_product.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
