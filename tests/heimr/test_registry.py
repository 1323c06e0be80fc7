from rules.heimr import NODE_TYPES, REGISTRY


def test_registry_uids_follow_the_heimr_scheme_and_have_implementations():
    assert len(REGISTRY) > 100
    for node in REGISTRY:
        assert node.uid.startswith("Heimr.") and len(node.uid.split(".")) == 3
        assert node.implementation is not None, node.uid
        assert set(node.types) <= set(NODE_TYPES)
