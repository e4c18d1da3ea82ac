"""The README's walkthrough, sync and async, run as written against the stack: only the signer
(eth-account's, which Debian does not package) is swapped for the test key, and the address for
the stack's."""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

import pytest
from conftest import TestKeySigner

README = Path(__file__).resolve().parent.parent / "README.md"
SIGNER_LINES = (
    "from eth_account import Account\n",
    'signer = songmint.EthAccountSigner(Account.from_key(os.environ["PRIVATE_KEY"]))\n',
)


def readme_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_readme_walkthrough_sync(base_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code = readme_blocks()[0]
    for line in SIGNER_LINES:
        assert line in code, f"the README's walkthrough no longer has {line!r}"
        code = code.replace(line, "")
    monkeypatch.chdir(tmp_path)
    exec(compile(code.replace("http://127.0.0.1:3000", base_url), str(README), "exec"), {"signer": TestKeySigner(), "os": os})
    printed = capsys.readouterr().out
    assert re.search(r"^signed in as 0x[0-9a-f]{40} free$", printed, re.M), printed
    assert re.search(r"^completed", printed, re.M) and "mint with 0x" in printed, printed
    assert [path.suffix for path in tmp_path.iterdir()] == [".mp3"]


def test_readme_walkthrough_async(base_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = readme_blocks()[1]
    namespace: dict[str, object] = {}
    exec(compile(code.replace("http://127.0.0.1:3000", base_url), str(README), "exec"), namespace)
    monkeypatch.chdir(tmp_path)
    main = namespace["main"]
    assert callable(main)
    asyncio.run(main(TestKeySigner()))
    assert (tmp_path / "song.mp3").stat().st_size > 1000
