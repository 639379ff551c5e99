"""Caption corpora: cue units against sentence units, speaker names in meta against before the text.

    .venv/bin/python benchmarks/captions.py [--restarts 100]

Writes six synthetic meeting and podcast transcripts (four WebVTT files with voices, two SubRip
files without; each with its chapters track as the reference) built from the hand-written topic
sentences of ``_caption_topics.py``: captions cut every 4 to 9 words, filler replies ("Mm-hmm.")
from other speakers, some overlapping, long silences, chapters at the topic changes. Then runs
C99, U00, TextTiling and the two content-blind baselines on it read four ways (``unit`` cue or
sentence, ``speakers`` meta or prefix) and prints the headline, Pk and B of each. The README's
Transcripts paragraph quotes these numbers. A synthetic corpus: it shows what the options do,
not how segmenters fare on real meetings.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._caption_topics import FILLERS, TOPICS  # noqa: E402

from stability import evaluate  # noqa: E402
from stability.readers import read_corpus  # noqa: E402

TALKS = [  # name, topics in order, speakers, format, topics after which a long silence falls
    ("council-2024-03", ["budget", "roads", "soccer", "remote_work"], ["Mayor Lee", "Treasurer Diaz", "Clerk Ono"], "vtt", (2,)),
    ("council-2024-04", ["roads", "passwords", "budget", "composting"], ["Mayor Lee", "Clerk Ono"], "vtt", ()),
    ("podcast-ep12", ["sourdough", "coffee", "beekeeping"], ["Sam", "Priya"], "vtt", ()),
    ("podcast-ep13", ["electric_cars", "composting", "coffee", "sourdough"], ["Sam", "Priya", "Guest"], "vtt", (1,)),
    ("allhands-q2", ["remote_work", "passwords", "budget"], ["CEO", "IT lead"], "srt", ()),
    ("allhands-q3", ["passwords", "remote_work", "electric_cars", "soccer", "budget"], ["CEO", "HR"], "srt", (3,)),
]
SEGMENTERS = {"c99": "c99", "u00": "u00", "texttiling": "texttiling", "even": "even", "none": "none"}


def clock(t: float, comma: bool = False) -> str:
    ms = int(round(t * 1000))
    h, ms = divmod(ms, 3_600_000)
    m, ms = divmod(ms, 60_000)
    s, ms = divmod(ms, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{',' if comma else '.'}{ms:03d}"


def speech(topics: list[str], speakers: list[str], rng: random.Random, silence_at: tuple[int, ...],
           filler_p: float = 0.25, overlap_p: float = 0.3) -> tuple[list[tuple], list[tuple]]:
    """Cues (start, end, speaker, text) in start order and chapters (start, title)."""
    t = rng.uniform(0.5, 3.0)
    cues, chapters, main = [], [], 0
    for k, topic in enumerate(topics):
        if k in silence_at:
            t += rng.uniform(45, 150)  # a break
        chapters.append((t, topic.replace("_", " ").title()))
        main = (main + 1) % len(speakers) if k else 0
        for i, sentence in enumerate(TOPICS[topic]):
            if i and rng.random() < 0.2:
                main = rng.randrange(len(speakers))
            words, pos = sentence.split(), 0
            while pos < len(words):  # captions cut every 4 to 9 words
                chunk = words[pos:pos + rng.randint(4, 9)]
                pos += len(chunk)
                duration = len(chunk) / rng.uniform(2.3, 3.2)
                cues.append((t, t + duration, speakers[main], " ".join(chunk)))
                t += duration + rng.choice([0.0, 0.0, 0.04, 0.2])
            if len(speakers) > 1 and rng.random() < filler_p:  # another speaker's short reply
                other = rng.choice([s for s in speakers if s != speakers[main]])
                duration = rng.uniform(0.3, 0.9)
                start = t - rng.uniform(0.1, 0.6) if rng.random() < overlap_p else t + 0.1
                cues.append((start, start + duration, other, rng.choice(FILLERS)))
                t = max(t, start + duration) + 0.1
            t += rng.uniform(0.1, 0.8)
    cues.sort(key=lambda c: c[0])
    return cues, chapters


def vtt(cues: list[tuple], voices: bool = True, ids: bool = False, settings: str = "") -> str:
    out = ["WEBVTT", "Kind: captions", "Language: en", ""]
    for k, (a, b, who, text) in enumerate(cues, 1):
        out += ([f"cue-{k}"] if ids else []) + [f"{clock(a)} --> {clock(b)}{settings}"]
        out += [f"<v {who}>{text}</v>" if voices and who else text, ""]
    return "\n".join(out)


def srt(cues: list[tuple], crlf: bool = False) -> str:
    out = []
    for k, (a, b, _, text) in enumerate(cues, 1):
        words = text.split()  # SubRip files break long cues over two lines
        lines = [text] if len(words) < 6 else [" ".join(words[:len(words) // 2]), " ".join(words[len(words) // 2:])]
        out += [str(k), f"{clock(a, comma=True)} --> {clock(b, comma=True)}", *lines, ""]
    return ("\r\n" if crlf else "\n").join(out)


def write_corpus(folder: Path) -> None:
    rng = random.Random(7)
    for name, topics, speakers, fmt, silence in TALKS:
        cues, chapters = speech(topics, speakers, rng, silence)
        end = max(b for _, b, _, _ in cues)
        if fmt == "vtt":
            text = vtt(cues, ids=name.endswith("04"), settings=" line:90%" if "ep13" in name else "")
            (folder / f"{name}.vtt").write_text(text, encoding="utf-8")
        else:
            (folder / f"{name}.srt").write_text(srt(cues, crlf=name.endswith("q3")), encoding="utf-8")
        marks = [(t, chapters[k + 1][0] if k + 1 < len(chapters) else end, None, title)
                 for k, (t, title) in enumerate(chapters)]
        (folder / f"{name}.chapters.vtt").write_text(vtt(marks, voices=False), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--restarts", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_corpus(folder)
        print(f"{'unit':<9} {'speakers':<9} {'segmenter':<11} {'headline':>8} {'Pk':>6} {'B':>6}")
        for unit in ("cue", "sentence"):
            for speakers in ("meta", "prefix"):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # the readers' notes on overlapping cues
                    docs = list(read_corpus(folder, format="subtitles", unit=unit, speakers=speakers))
                    run = evaluate(SEGMENTERS, docs, n_restarts=args.restarts, progress=False)
                for label, s in run.summary.items():
                    print(f"{unit:<9} {speakers:<9} {label:<11} {s.macro['count_corrected'].mean:>8.2f} "
                          f"{s.reference['pk'].mean:>6.2f} {s.reference['boundary_similarity'].mean:>6.2f}")


if __name__ == "__main__":
    main()
