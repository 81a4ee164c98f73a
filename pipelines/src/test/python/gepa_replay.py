"""GEPA's calls into an adapter, replayed without GEPA (it is not installed here): the seed's scoring and one iteration
of `gepa.optimize` with its defaults (a reflection LM proposes, round-robin component selection, strict-improvement
acceptance, no merge, raise_on_exception=True), written from the source of gepa-ai/gepa v0.1.4
(commit 8b0ce6cd99a234f6b74daf37558a2ac0ce18f975). Each step cites the lines it follows; the adapter is only ever
touched the way those lines touch it, so an attribute GEPA reads directly is read directly here.
"""
import re


class Log:
    """GEPA's logger: the engine and proposer log what they skip or catch."""

    def __init__(self):
        self.lines = []

    def log(self, line):
        self.lines.append(line)


def _render(value, level):
    # strategies/instruction_proposal.py:63-85: dicts and lists become markdown headers, anything else its str()
    if isinstance(value, dict):
        return "".join("%s %s\n%s" % ("#" * level, k, _render(v, min(level + 1, 6))) for k, v in value.items()) or "\n"
    if isinstance(value, (list, tuple)):
        return "".join("%s Item %d\n%s" % ("#" * level, i + 1, _render(v, min(level + 1, 6)))
                       for i, v in enumerate(value)) or "\n"
    return str(value).strip() + "\n\n"


def reflection_prompt(current_text, records):
    """strategies/instruction_proposal.py:45-121: the default template with <curr_param> and <side_info> filled in."""
    side_info = "\n\n".join("# Example %d\n" % (i + 1) + "".join("## %s\n%s" % (k, _render(v, 3)) for k, v in r.items())
                            for i, r in enumerate(records))
    return ("I provided an assistant with the following instructions to perform a task for me:\n```\n%s\n```\n\n"
            "The following are examples of different task inputs provided to the assistant along with the assistant's"
            " response for each of them, and some feedback on how the assistant's response could be better:\n```\n%s\n```"
            "\n\nYour task is to write a new instruction for the assistant. ... Provide the new instructions within ```"
            " blocks." % (current_text, side_info))


def extract_new_text(lm_out):
    """strategies/instruction_proposal.py:125-155: the text between the first and the last ```, minus a language tag."""
    start, end = lm_out.find("```") + 3, lm_out.rfind("```")
    if start >= end:
        return lm_out.strip()
    content = lm_out[start:end]
    tag = re.match(r"^\S*\n", content)
    return (content[tag.end():] if tag else content).strip()


def _batch_evaluate(adapter, items):
    # proposer/reflective_mutation/reflective_mutation.py:231-236, core/engine.py:251-256: the adapter's batch_evaluate
    # if it has one, else core/adapter.py:217-227 default_batch_evaluate, which always captures traces
    batch_fn = getattr(adapter, "batch_evaluate", None)
    if batch_fn is not None:
        return batch_fn(items)
    return [adapter.evaluate(batch, candidate, capture_traces=True) for candidate, batch in items]


def _check_batch(eb, batch, traced):
    # core/adapter.py:156-166, the correctness constraints GEPA relies on (it zips these lists with strict=True)
    assert len(eb.outputs) == len(eb.scores) == len(batch), "outputs and scores align with the batch"
    if traced:
        assert eb.trajectories is not None and len(eb.trajectories) == len(batch), "one trajectory per example"
    # reflective_mutation.py:323-340 and :329 read these two fields of every EvaluationBatch
    _ = (eb.objective_scores, eb.num_metric_calls)


def optimize_one_iteration(adapter, seed, trainset, valset, reflection_lm):
    """The seed's valset scores, then one reflective-mutation iteration; returns what GEPA would have learned:
    {"seed_val_scores", "parent", "reflective_dataset", "child", "child_scores", "accepted", "child_val_scores",
    "log"}. Exceptions raised by the adapter propagate, as GEPA's engine re-raises them (core/engine.py:853-869)."""
    log = Log()
    out = {"log": log.lines, "child": None, "accepted": False}
    # api.py:224-236: GEPA looks for the adapter's own proposer with hasattr; without one it needs the reflection LM
    adapter_has_propose = hasattr(adapter, "propose_new_texts") and adapter.propose_new_texts is not None
    assert adapter_has_propose or reflection_lm is not None, "reflection_lm was not provided"

    # core/engine.py:125-129 and 593-630: the seed is scored on the valset without traces
    seed_eval = adapter.evaluate(valset, seed, capture_traces=False)
    _check_batch(seed_eval, valset, traced=False)
    out["seed_val_scores"] = list(seed_eval.scores)

    # reflective_mutation.py:306: the parent (the seed, the only candidate) on a training minibatch, traced
    minibatch = trainset
    parent_eval = _batch_evaluate(adapter, [(seed, minibatch)])[0]
    _check_batch(parent_eval, minibatch, traced=True)
    out["parent"] = parent_eval
    if not parent_eval.trajectories:  # :379
        log.log("No trajectories for parent 0. Skipping.")
        return out

    # strategies/component_selector.py:10-24 round robin: the first component on the first iteration
    components = [list(seed.keys())[0]]
    # :420-425: the reflective dataset, each record copied with dict()
    dataset = adapter.make_reflective_dataset(seed, parent_eval, components)
    dataset = {k: [dict(item) for item in v] for k, v in dataset.items()}
    out["reflective_dataset"] = dataset

    # :457 -> :170-180 (batched) and on failure :202-224 (per task, :146-153): each reads adapter.propose_new_texts
    # directly; an exception is logged and the task proposes nothing
    def propose():
        if adapter.propose_new_texts is not None:
            return adapter.propose_new_texts(seed, dataset, components)
        # proposer/reflective_mutation/reflection_lm.py:154-180 StatelessReflectionLM.reflect_many: one prompt per
        # component that has records
        return {name: extract_new_text(reflection_lm(reflection_prompt(seed[name], dataset[name])))
                for name in components if dataset.get(name)}

    try:
        new_texts = propose()
    except Exception as e:
        log.log("Batched reflection failed (%s); retrying per task." % e)
        try:
            new_texts = propose()
        except Exception as e2:
            log.log("Per-task reflection failed: %s" % e2)
            return out
    if not new_texts:
        log.log("Reflection returned no text updates; skipping proposal for this task.")
        return out
    child = dict(seed)
    for name, text in new_texts.items():
        assert name in child, "%s missing in candidate" % name  # :519
        child[name] = text
    out["child"] = child

    # :550: the child on the same minibatch, traced
    child_eval = _batch_evaluate(adapter, [(child, minibatch)])[0]
    _check_batch(child_eval, minibatch, traced=True)
    out["child_scores"] = list(child_eval.scores)
    # strategies/acceptance.py StrictImprovementAcceptance: the sum of the minibatch scores must improve
    out["accepted"] = sum(child_eval.scores) > sum(parent_eval.scores)
    if out["accepted"]:
        # core/engine.py:517 -> 178-256: the accepted child is scored on the valset through batch_evaluate
        val_eval = _batch_evaluate(adapter, [(child, valset)])[0]
        _check_batch(val_eval, valset, traced=True)
        out["child_val_scores"] = list(val_eval.scores)
    return out
