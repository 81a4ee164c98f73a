package io.servesim.usercode;

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreeScanner;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Inserts the {@link CallBudget#check} into a source, so that a call running over its budget stops: at the start of
 * every loop body (each iteration) and of every method and block lambda (recursion), reading the budget from a class
 * appended to the source, {@value ReferenceCheck#RESERVED}, whose loader holds it ({@link CallBudget#of}).
 * Constructors are left alone (their first statement must be {@code this(...)} or {@code super(...)}); their loops
 * are checked. Nothing is inserted on a new line, so every line keeps its number: compiler messages and stack traces
 * name the user's lines.
 */
final class Instrumentation {
    private static final String CHECK = ReferenceCheck.RESERVED + ".B.check(); ";
    private static final String HOLDER = "\nfinal class " + ReferenceCheck.RESERVED + " { static final "
            + CallBudget.class.getName() + " B = " + CallBudget.class.getName() + ".of(" + ReferenceCheck.RESERVED
            + ".class); }\n";

    private record Insert(long at, String text) {
    }

    private Instrumentation() {
    }

    /** {@code text}, the source of {@code unit} (parsed with {@code positions}), with the checks and their holder. */
    static String instrument(String text, CompilationUnitTree unit, SourcePositions positions) {
        List<Insert> inserts = new ArrayList<>();
        new TreeScanner<Void, Void>() {
            @Override
            public Void visitMethod(MethodTree node, Void p) {
                if (node.getBody() != null && !node.getName().contentEquals("<init>")) {
                    atStart(node.getBody());
                }
                return super.visitMethod(node, p);
            }

            @Override
            public Void visitLambdaExpression(LambdaExpressionTree node, Void p) {
                if (node.getBody() instanceof BlockTree block) {
                    atStart(block);
                }
                return super.visitLambdaExpression(node, p);
            }

            @Override
            public Void visitForLoop(ForLoopTree node, Void p) {
                eachIteration(node.getStatement());
                return super.visitForLoop(node, p);
            }

            @Override
            public Void visitEnhancedForLoop(EnhancedForLoopTree node, Void p) {
                eachIteration(node.getStatement());
                return super.visitEnhancedForLoop(node, p);
            }

            @Override
            public Void visitWhileLoop(WhileLoopTree node, Void p) {
                eachIteration(node.getStatement());
                return super.visitWhileLoop(node, p);
            }

            @Override
            public Void visitDoWhileLoop(DoWhileLoopTree node, Void p) {
                eachIteration(node.getStatement());
                return super.visitDoWhileLoop(node, p);
            }

            private void eachIteration(StatementTree body) {
                if (body instanceof BlockTree block) {
                    atStart(block);
                } else {
                    inserts.add(new Insert(positions.getStartPosition(unit, body), "{ " + CHECK));
                    inserts.add(new Insert(positions.getEndPosition(unit, body), " }"));
                }
            }

            private void atStart(Tree block) {
                inserts.add(new Insert(positions.getStartPosition(unit, block) + 1, CHECK)); // after its '{'
            }
        }.scan(unit, null);
        inserts.sort(Comparator.comparingLong(Insert::at).reversed());
        StringBuilder out = new StringBuilder(text);
        for (Insert i : inserts) {
            out.insert((int) i.at(), i.text());
        }
        return out.append(HOLDER).toString();
    }
}
