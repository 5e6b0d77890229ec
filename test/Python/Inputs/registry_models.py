"""A model registry module as timm is (the factories in a submodule,
create_model(name) at the top): for python -m dwc_torch.aot --model, whose
hint for 'registry_models:tiny' names registry_models:create_model:tiny."""
import tiny_models

MODELS = {"tiny": tiny_models.tiny}


def create_model(name):
    return MODELS[name]()
