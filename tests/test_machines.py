"""The machine classes that ``python3 dev.py matrix`` reruns the numeric tests under."""

import os

import pytest

from mha.bench import machines


@pytest.fixture(scope="module")
def classes():
    return machines.machine_classes()


def test_this_machine_as_it_is_comes_first_and_each_other_class_computes_differently(classes):
    assert classes[0].name == "as it is" and classes[0].env == {}
    assert classes[1].env == dict.fromkeys(machines.THREAD_VARIABLES, "1")
    kernels = [(c.simd, c.blas) for c in classes[2:]]
    assert (classes[0].simd, classes[0].blas) not in kernels
    assert len(set(kernels)) == len(kernels), "a class that changes nothing was kept"
    assert len({tuple(sorted(c.env.items())) for c in classes}) == len(classes)


def test_a_class_reports_the_kernels_its_environment_selects(classes):
    for c in classes[2:]:
        again = machines.probe(c.env)
        assert again is not None and (again.simd, again.blas) == (c.simd, c.blas)


def test_a_python_that_cannot_run_gives_no_class():
    assert machines.probe({}, python="/bin/false") is None


def test_environ_adds_the_class_variables_to_the_base():
    c = machines.MachineClass("x", {"OPENBLAS_CORETYPE": "Haswell"})
    assert c.environ({"A": "1"}) == {"A": "1", "OPENBLAS_CORETYPE": "Haswell"}
    assert c.environ()["PATH"] == os.environ["PATH"]
