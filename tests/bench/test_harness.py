"""The in-process part of the benchmark harness (bench/harness.py) that the
manage.py bench commands share."""

import pytest

from bench.harness import rolled_back, spread, timed
from people.models import Person


@pytest.mark.django_db(transaction=True)
def test_rolled_back_leaves_no_generated_data():
    with rolled_back():
        Person.objects.create(name="Bench Person")
        assert Person.objects.filter(name="Bench Person").exists()
    assert not Person.objects.filter(name="Bench Person").exists()


@pytest.mark.django_db(transaction=True)
def test_rolled_back_also_on_error():
    with pytest.raises(ValueError), rolled_back():
        Person.objects.create(name="Bench Person")
        raise ValueError
    assert not Person.objects.exists()


def test_timed_runs_the_work_repeat_times_and_keeps_the_last_result():
    runs = []
    walls, cpus, last = timed(lambda: runs.append(len(runs)) or len(runs), 3)
    assert runs == [0, 1, 2] and last == 3
    assert len(walls) == len(cpus) == 3


def test_spread_is_median_and_max_with_extra_keys():
    assert spread([0.3, 0.1, 0.25], 2, target=2.0) == {"median": 0.25, "max": 0.3, "target": 2.0}
