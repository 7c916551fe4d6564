"""Bot accounts as the operator makes them: `tetrad bots add/list/revoke/ladder`, and the
rules of names."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.bots.accounts import BotNameError, bot_by_token, check_name, token_hash
from server.cli import main
from server.db.session import make_engine


@pytest.mark.parametrize("name", ["Greedy-7", "nim_bot", "Abc", "x" * 24, "Hardy", "Eas1er"])
def test_names_a_bot_may_bear(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize(
    "name",
    ["ab", "x" * 25, "7up", "-dash", "two words", "émile", "hard", "HARD", "Hard-2", "e_a_s_y",
     "normal", "Computer", "tetrad1", "admin"],
)  # fmt: skip
def test_names_refused(name: str) -> None:
    with pytest.raises(BotNameError):
        check_name(name)


def test_the_operator_adds_lists_and_revokes_bots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = ["--data-dir", str(tmp_path)]
    assert main(["bots", "add", "Greedy", *where]) == 0
    token = capsys.readouterr().out.splitlines()[-1]
    assert token.startswith("tb_") and len(token) > 40
    assert main(["bots", "add", "greedy", *where]) == 2  # names are unique whatever the case
    assert "already" in capsys.readouterr().err
    assert main(["bots", "add", "hard", *where]) == 2
    assert main(["bots", "add", "Nimbus", "--ladder", *where]) == 0
    capsys.readouterr()
    engine = make_engine(f"sqlite:///{tmp_path / 'tetrad.sqlite3'}")
    try:
        bot = bot_by_token(engine, token)
        assert bot is not None and bot.name == "Greedy" and bot.token_hash == token_hash(token)
        # Only the hash is kept: the token itself is nowhere in the database.
        assert token.encode() not in (tmp_path / "tetrad.sqlite3").read_bytes()
        assert main(["bots", "list", *where]) == 0
        listed = capsys.readouterr().out.splitlines()
        assert [line.split()[:3] for line in listed] == [
            ["Greedy", "active", "-"],
            ["Nimbus", "active", "ladder"],
        ]
        assert main(["bots", "ladder", "Greedy", "on", *where]) == 0
        assert main(["bots", "revoke", "Greedy", *where]) == 0
        assert main(["bots", "revoke", "Greedy", *where]) == 1
        assert main(["bots", "revoke", "Nobody", *where]) == 1
        capsys.readouterr()
        assert bot_by_token(engine, token) is None
        assert main(["bots", "list", *where]) == 0
        assert capsys.readouterr().out.split()[1] == "revoked"
    finally:
        engine.dispose()
