package io.servesim.evolve;

import java.util.List;
import java.util.Map;

/**
 * What a search found.
 *
 * @param all     every candidate of every generation, in order
 * @param best    the candidate of highest training fitness (the earliest of equals)
 * @param train   the training split's score of the best candidate ({@link EvolveRounds#BEST}) and of each baseline
 * @param heldOut the held-out split's score of the same
 */
record EvolveResult(List<Evaluated> all, Evaluated best, Map<String, EvolveRounds.Score> train,
                    Map<String, EvolveRounds.Score> heldOut) {
}
