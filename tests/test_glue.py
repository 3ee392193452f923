"""mha.book.glue: the chapters' numbers as the prose quotes them."""

import numpy as np
import pytest

from mha.book.glue import over_seeds


def test_over_seeds_is_the_mean_and_the_range():
    assert over_seeds([0.0, 0.5, 1.0]) == "0.50 (0.00 to 1.00)"
    assert over_seeds(np.array([0.9, 0.95]), ".0%") == "92% (90% to 95%)"
    assert over_seeds([3]) == "3.00 (3.00 to 3.00)"


@pytest.mark.parametrize("values", [[], [[1.0, 2.0]], 0.5])
def test_over_seeds_wants_one_number_per_seed(values):
    with pytest.raises(ValueError, match="one number per seed"):
        over_seeds(values)
