package dev.nqueens.job;

import dev.nqueens.symmetry.SymmetryReducer;
import org.springframework.batch.infrastructure.item.ItemProcessor;

/** Runs each solution through the canonical-symmetry reducer. One instance per partition. */
// Not final: step-scoped beans are proxied by subclassing.
class ClassifyingProcessor implements ItemProcessor<NumberedPlacement, ClassifiedSolution> {

    private final SymmetryReducer reducer;

    ClassifyingProcessor(int n) {
        this.reducer = new SymmetryReducer(n);
    }

    @Override
    public ClassifiedSolution process(NumberedPlacement item) {
        return new ClassifiedSolution(item.ordinal(), item.placement(), reducer.reduce(item.placement()));
    }
}
