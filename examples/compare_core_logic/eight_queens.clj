;; The core.logic seed's eight-queens namespace (from ../shared/seeds), with a
;; -main that prints, for each n given, the count, every solution in run*
;; order, and the median time of warm runs. Run by compare.py.

(ns eight-queens
  (:refer-clojure :exclude [==])
  (:require
   [clojure.string :as str]
   [clojure.core.logic :refer :all :as l]
   [clojure.core.logic.fd :as fd]))

(defn queens-logic
  [n]
  ;; make (n=8) logic variables, for each row
  (let [colvars (map (fn [i] (l/lvar (str "col-" i))) (range n))]
    (l/run* [q]
      ;; 1. each queen is in a column 0..n-1
      (everyg (fn [lv] (fd/in lv (fd/interval (dec n)))) colvars)
      ;; 2. columns must be different
      (fd/distinct colvars)
      ;; 3. diagonal constraint
      (and* (for [i (range n)
                  j (range (inc i) n)
                  :let [row-diff (- j i)
                        ci (nth colvars i)
                        cj (nth colvars j)]]
              (fresh []
                (fd/eq (!= cj (+ ci row-diff)))
                (fd/eq (!= ci (+ cj row-diff))))))
      (l/== q colvars))))

(defn- seconds [f]
  (let [t0 (System/nanoTime)
        r (f)]
    (dorun r)
    [r (/ (- (System/nanoTime) t0) 1e9)]))

(defn -main [& args]
  (let [repeats 3]
    ;; warm the JVM up
    (dorun (queens-logic 6))
    (doseq [n (map #(Integer/parseInt %) args)]
      (let [runs (repeatedly repeats #(seconds (fn [] (doall (queens-logic n)))))
            times (sort (map second runs))
            sols (first (first runs))]
        (println "n" n "count" (count sols) "seconds" (nth times (quot repeats 2)))
        (doseq [s sols]
          (println "sol" n (str/join " " s)))
        (flush)))))

(apply -main *command-line-args*)
