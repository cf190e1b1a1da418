"""The strict YAML loader: safe, keeps line numbers, rejects duplicate and non-string keys."""

import pytest

from floorcall.content.yamlload import YamlProblem, line_of, load_text


@pytest.mark.parametrize(
    "text, code, line, message",
    [
        ("a: 1\na: 2\n", "FC002", 2, "duplicate key 'a' (first on line 1)"),
        ("answers:\n  yes: 1\n", "FC003", 2, "key 'yes' is read as bool, not a string — quote it: 'yes':"),
        ("1: x\n", "FC003", 1, "key '1' is read as int, not a string — quote it: '1':"),
        ("a: [1,\n", "FC001", 2, "not valid YAML: did not find expected node content"),
        ("a: !!python/object:os.system x\n", "FC001", 1, None),
    ],
)
def test_rejects(text, code, line, message):
    """Each bad document raises YamlProblem with its code, line and exact message."""
    with pytest.raises(YamlProblem) as caught:
        load_text(text)
    assert caught.value.code == code
    assert caught.value.line == line
    if message:
        assert caught.value.message == message


def test_keeps_line_numbers():
    """Every mapping remembers the line of each key."""
    data = load_text("id: x\nquestions:\n  q1:\n    ask: Why?\n")
    assert line_of(data, "questions") == 2
    assert line_of(data["questions"], "q1") == 3
    assert line_of(data["questions"]["q1"], "ask") == 4
