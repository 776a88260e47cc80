"""llm's embedding model `bench-embed` for benches/memory.sh: the vectors of
benches/memory_data.py (found through PYTHONPATH), so llm and gem-ask
search the same data with the same query vectors."""
import llm

import memory_data


@llm.hookimpl
def register_embedding_models(register):
    register(BenchEmbed())


class BenchEmbed(llm.EmbeddingModel):
    model_id = memory_data.MODEL
    batch_size = 100

    def embed_batch(self, texts):
        for t in texts:
            yield memory_data.embed(t).tolist()
