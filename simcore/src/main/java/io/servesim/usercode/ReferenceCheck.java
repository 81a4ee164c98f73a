package io.servesim.usercode;

import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnionTypeTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.IntersectionType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;
import javax.tools.Diagnostic;

/**
 * Checks an analyzed source against {@link Rules}, each problem with its line (the first one found on a line, inner
 * expressions before the ones that contain them): every type, method, field and
 * constructor the source names or calls, and the type of every value it computes, must be its own, the API's or an
 * allowed one of {@code java.lang}, {@code java.util} and {@code java.util.function}; a static field must be a
 * constant (final, of a primitive type, {@code String} or an enum of the source); no {@code catch} of an
 * {@code Error} or {@code Throwable} (a call over budget must stop), no {@code synchronized}, no native or
 * {@code finalize} method (a finalizer runs on another thread). It also finds the one public class implementing the
 * expected interface, and records which API methods the source calls (a routing policy's signals follow from them).
 * Javac's tree API (com.sun.source, module jdk.compiler), so each reference is resolved as the compiler resolved it.
 */
final class ReferenceCheck extends TreePathScanner<Void, Void> {
    /** The class the instrumented checks read their budget from ({@link Instrumentation}); the source may not declare it. */
    static final String RESERVED = "$ServesimBudget";

    /** What the check found. */
    record Result(List<String> problems, String mainClass, Map<String, Set<String>> apiCalls) {
    }

    private final String fileName;
    private final Trees trees;
    private final Elements elements;
    private final Types types;
    private final SourcePositions positions;
    private final Set<String> apiPackages;
    private final CompilationUnitTree unit;
    /** The first problem of each line, by line (one offending line is reported once, with its first reason). */
    private final java.util.SortedMap<Long, String> problems = new java.util.TreeMap<>();
    private final Map<String, Set<String>> apiCalls = new LinkedHashMap<>();

    private ReferenceCheck(JavacTask task, CompilationUnitTree unit, String fileName, Set<String> apiPackages) {
        this.fileName = fileName;
        this.trees = Trees.instance(task);
        this.elements = task.getElements();
        this.types = task.getTypes();
        this.positions = trees.getSourcePositions();
        this.apiPackages = apiPackages;
        this.unit = unit;
    }

    /**
     * Checks {@code unit} (analyzed by {@code task}) and finds its class implementing {@code expected}.
     *
     * @param apiPackages the packages of the API the source implements (all of their types are allowed)
     */
    static Result check(JavacTask task, CompilationUnitTree unit, String fileName, Class<?> expected, Set<String> apiPackages) {
        ReferenceCheck c = new ReferenceCheck(task, unit, fileName, apiPackages);
        c.checkPackage();
        c.scan(unit, null);
        String main = c.mainClass(expected);
        return new Result(List.copyOf(c.problems.values()), main, c.apiCalls);
    }

    private void checkPackage() {
        ExpressionTree pkg = unit.getPackageName();
        if (pkg == null) {
            return;
        }
        String name = pkg.toString();
        for (String reserved : List.of("java.", "javax.", "jdk.", "sun.", "com.sun.", "io.servesim.")) {
            if ((name + ".").startsWith(reserved)) {
                problem(pkg, "package " + name + " is reserved; put the policy in another package or none");
            }
        }
    }

    /** The binary name of the one public top-level class implementing {@code expected}, or null (a problem says why). */
    private String mainClass(Class<?> expected) {
        TypeElement iface = elements.getTypeElement(expected.getCanonicalName());
        List<TypeElement> publicTypes = new ArrayList<>();
        for (Tree t : unit.getTypeDecls()) {
            Element e = trees.getElement(TreePath.getPath(unit, t));
            if (e instanceof TypeElement te && te.getModifiers().contains(Modifier.PUBLIC)) {
                publicTypes.add(te);
            }
        }
        String want = "a policy is one public class implementing " + expected.getName() + " with a public no-argument"
                + " constructor";
        if (publicTypes.size() != 1) {
            problems.put(0L, fileName + ": declares " + publicTypes.size() + " public top-level types: " + want);
            return null;
        }
        TypeElement main = publicTypes.get(0);
        Tree at = trees.getTree(main);
        if (main.getKind() != ElementKind.CLASS || main.getModifiers().contains(Modifier.ABSTRACT)) {
            problem(at, main.getSimpleName() + " is not a concrete class: " + want);
        } else if (!types.isAssignable(types.erasure(main.asType()), types.erasure(iface.asType()))) {
            problem(at, main.getSimpleName() + " does not implement " + expected.getName() + ": " + want);
        } else if (ElementFilter.constructorsIn(main.getEnclosedElements()).stream()
                .noneMatch(k -> k.getParameters().isEmpty() && k.getModifiers().contains(Modifier.PUBLIC))) {
            problem(at, main.getSimpleName() + " has no public no-argument constructor: " + want);
        }
        return elements.getBinaryName(main).toString();
    }

    @Override
    public Void visitImport(ImportTree node, Void p) {
        Tree id = node.getQualifiedIdentifier();
        if (!node.isStatic() && id instanceof MemberSelectTree s && s.getIdentifier().contentEquals("*")) {
            Element e = trees.getElement(new TreePath(new TreePath(getCurrentPath(), id), s.getExpression()));
            if (e instanceof PackageElement pkg) {
                String name = pkg.getQualifiedName().toString();
                String why = apiPackages.contains(name) ? null : Rules.typeRefused(name + ".*");
                if (why != null) {
                    problem(node, "imports " + name + ".*: " + refusal(why));
                }
                return null;
            }
        }
        return super.visitImport(node, p);
    }

    @Override
    public Void visitIdentifier(IdentifierTree node, Void p) {
        super.visitIdentifier(node, p);
        checkName(node);
        return null;
    }

    @Override
    public Void visitMemberSelect(MemberSelectTree node, Void p) {
        super.visitMemberSelect(node, p);
        checkName(node);
        return null;
    }

    /** A name: what it refers to, and for a value (not a type or package name), its type. */
    private void checkName(Tree node) {
        Element e = trees.getElement(getCurrentPath());
        checkElement(node, e);
        if (!(e instanceof TypeElement) && !(e instanceof PackageElement)) {
            checkType(node, trees.getTypeMirror(getCurrentPath()));
        }
    }

    @Override
    public Void visitMemberReference(MemberReferenceTree node, Void p) {
        super.visitMemberReference(node, p);
        checkElement(node, trees.getElement(getCurrentPath()));
        return null;
    }

    @Override
    public Void visitMethodInvocation(MethodInvocationTree node, Void p) {
        super.visitMethodInvocation(node, p);
        checkType(node, trees.getTypeMirror(getCurrentPath()));
        return null;
    }

    @Override
    public Void visitNewClass(NewClassTree node, Void p) {
        super.visitNewClass(node, p);
        checkElement(node, trees.getElement(getCurrentPath()));
        return null;
    }

    @Override
    public Void visitClass(ClassTree node, Void p) {
        Element e = trees.getElement(getCurrentPath());
        if (node.getSimpleName().contentEquals(RESERVED)) {
            problem(node, "the name " + RESERVED + " is reserved for servesim's call-budget checks");
        }
        if (e instanceof TypeElement te && te.getSuperclass() instanceof DeclaredType sup
                && !ownType((TypeElement) sup.asElement())) {
            // the implicit super() of a class without a constructor is in no tree: check it here
            String owner = elements.getBinaryName((TypeElement) sup.asElement()).toString();
            String why = Rules.memberRefused(owner, "<init>", 0);
            if (why != null) {
                problem(node, "extends " + owner + ", whose no-argument constructor " + refusal(why));
            }
        }
        return super.visitClass(node, p);
    }

    @Override
    public Void visitVariable(VariableTree node, Void p) {
        Element e = trees.getElement(getCurrentPath());
        if (e != null && e.getKind() == ElementKind.FIELD && e.getModifiers().contains(Modifier.STATIC)
                && !(e.getModifiers().contains(Modifier.FINAL) && constantType(e.asType()))) {
            problem(node, "static field " + node.getName() + ": a policy keeps no static mutable state (a static field"
                    + " must be final and a primitive, a String or an enum constant); keep state in instance fields");
        }
        return super.visitVariable(node, p);
    }

    @Override
    public Void visitMethod(MethodTree node, Void p) {
        Set<Modifier> mods = node.getModifiers().getFlags();
        if (mods.contains(Modifier.SYNCHRONIZED) || mods.contains(Modifier.NATIVE)) {
            problem(node, "method " + node.getName() + " is " + (mods.contains(Modifier.NATIVE) ? "native" : "synchronized")
                    + ": a policy runs on the simulation's one thread, in Java");
        }
        if (node.getName().contentEquals("finalize") && node.getParameters().isEmpty()) {
            problem(node, "finalize(): a finalizer runs on another thread, when the garbage collector decides");
        }
        return super.visitMethod(node, p);
    }

    @Override
    public Void visitSynchronized(SynchronizedTree node, Void p) {
        problem(node, "synchronized: a policy runs on the simulation's one thread");
        return super.visitSynchronized(node, p);
    }

    @Override
    public Void visitCatch(CatchTree node, Void p) {
        Tree type = node.getParameter().getType();
        List<? extends Tree> alternatives = type instanceof UnionTypeTree u ? u.getTypeAlternatives() : List.of(type);
        TypeMirror exception = elements.getTypeElement("java.lang.Exception").asType();
        for (Tree alt : alternatives) {
            TypeMirror t = trees.getTypeMirror(new TreePath(new TreePath(getCurrentPath(), node.getParameter()), alt));
            if (t != null && t.getKind() == TypeKind.DECLARED && !types.isSubtype(t, exception)) {
                problem(alt, "catches " + t + ": a policy may catch exceptions, not errors (a call over its time budget"
                        + " must stop)");
            }
        }
        return super.visitCatch(node, p);
    }

    /** A reference to {@code e} at {@code node}: its type must be allowed, and for a member, the member too. */
    private void checkElement(Tree node, Element e) {
        if (e == null || e instanceof PackageElement) {
            return;
        }
        if (e instanceof TypeElement te) {
            String why = typeRefusal(te);
            if (why != null) {
                problem(node, elements.getBinaryName(te) + ": " + refusal(why));
            }
            return;
        }
        if (!(e.getEnclosingElement() instanceof TypeElement owner) || ownType(owner) || arrayMember(owner)) {
            return; // a local variable, a parameter, a member of the source's own types, or an array's length or clone
        }
        String ownerName = elements.getBinaryName(owner).toString();
        String why = typeRefusal(owner);
        if (why == null) {
            int arity = e instanceof ExecutableElement x ? x.getParameters().size() : -1;
            String name = e.getKind() == ElementKind.CONSTRUCTOR ? "<init>" : e.getSimpleName().toString();
            why = Rules.memberRefused(ownerName, name, arity);
        }
        if (why != null) {
            String what = e.getKind() == ElementKind.CONSTRUCTOR ? "new " + ownerName + "(" + paramTypes(e) + ")"
                    : ownerName + "." + e.getSimpleName() + (e instanceof ExecutableElement ? "(" + paramTypes(e) + ")" : "");
            problem(node, what + ": " + refusal(why));
        } else if (apiPackages.contains(Rules.packageOf(ownerName)) && e instanceof ExecutableElement) {
            apiCalls.computeIfAbsent(ownerName, k -> new TreeSet<>()).add(e.getSimpleName().toString());
        }
    }

    /** The type of a value the source computes must be allowed too ({@code list.stream()}, {@code x.getClass()}). */
    private void checkType(Tree node, TypeMirror t) {
        String why = refusalOf(t);
        if (why != null) {
            problem(node, "a value of type " + t + ": " + refusal(why));
        }
    }

    private String refusalOf(TypeMirror t) {
        if (t == null) {
            return null;
        }
        if (t instanceof ArrayType a) {
            return refusalOf(a.getComponentType());
        }
        if (t instanceof WildcardType w) {
            String why = refusalOf(w.getExtendsBound());
            return why != null ? why : refusalOf(w.getSuperBound());
        }
        if (t instanceof IntersectionType i) {
            for (TypeMirror b : i.getBounds()) {
                String why = refusalOf(b);
                if (why != null) {
                    return why;
                }
            }
            return null;
        }
        if (t instanceof DeclaredType d && d.asElement() instanceof TypeElement te) {
            String why = typeRefusal(te);
            for (TypeMirror arg : d.getTypeArguments()) {
                why = why != null ? why : refusalOf(arg);
            }
            return why;
        }
        return null; // primitives, void, null, type variables (declared in the source, and checked there)
    }

    private String typeRefusal(TypeElement te) {
        if (ownType(te)) {
            return null;
        }
        String name = elements.getBinaryName(te).toString();
        return apiPackages.contains(Rules.packageOf(name)) ? null : Rules.typeRefused(name);
    }

    /**
     * Whether {@code te} is javac's type of an array's members ({@code length}, {@code clone()}): "Array", enclosed
     * by no package or type.
     */
    private static boolean arrayMember(TypeElement te) {
        Element in = te.getEnclosingElement();
        return te.getQualifiedName().contentEquals("Array") && !(in instanceof TypeElement)
                && (!(in instanceof PackageElement p) || p.isUnnamed());
    }

    /** Whether {@code te} is declared in the source being checked. */
    private boolean ownType(TypeElement te) {
        TreePath path = trees.getPath(te);
        return path != null && path.getCompilationUnit() == unit;
    }

    /** A static field's type that holds no mutable state: a primitive, a String, or an enum of the source. */
    private boolean constantType(TypeMirror t) {
        if (t.getKind().isPrimitive()) {
            return true;
        }
        if (t instanceof DeclaredType d && d.asElement() instanceof TypeElement te) {
            return te.getQualifiedName().contentEquals("java.lang.String")
                    || (te.getKind() == ElementKind.ENUM && ownType(te));
        }
        return false;
    }

    private static String paramTypes(Element e) {
        StringBuilder b = new StringBuilder();
        for (var v : ((ExecutableElement) e).getParameters()) {
            b.append(b.length() == 0 ? "" : ", ").append(v.asType());
        }
        return b.toString();
    }

    private String refusal(String why) {
        return "not allowed in a policy (" + why + "); a policy may use its API (" + String.join(", ", new TreeSet<>(apiPackages))
                + ") and the value types of java.lang, java.util and java.util.function";
    }

    private void problem(Tree at, String message) {
        long line = unit.getLineMap().getLineNumber(startOf(at));
        problems.putIfAbsent(line, fileName + ":" + line + ": " + message);
    }

    /**
     * Where {@code at} starts in the source. A tree javac made up has no position (the type it infers for a
     * {@code var}, which would be reported at line 0), so then where the nearest tree around it being scanned starts
     * (the declaration).
     */
    private long startOf(Tree at) {
        long start = positions.getStartPosition(unit, at);
        for (TreePath p = getCurrentPath(); start == Diagnostic.NOPOS && p != null; p = p.getParentPath()) {
            start = positions.getStartPosition(unit, p.getLeaf());
        }
        return start;
    }
}
