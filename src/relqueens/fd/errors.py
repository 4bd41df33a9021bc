"""The exceptions of the FD layer."""


class DomainError(ValueError):
    """A variable needs a finite domain and has none (e.g. labeling ``x`` before ``fd.in_``).

    >>> issubclass(DomainError, ValueError)
    True
    """
